/** An article's topics as a labelled list of tags. */
export function TopicTags({ topics }: { topics: readonly string[] }) {
  return (
    <ul className="tags" aria-label="Topics">
      {topics.map((topic) => (
        <li key={topic} className="tag">
          {topic}
        </li>
      ))}
    </ul>
  );
}
