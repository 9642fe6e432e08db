export interface SuggestionTagsProps {
  /** Tags to show (already capped at `SUGGESTIONS_SHOWN`); nothing renders when empty. */
  tags: string[];
  /** Called with the tag's text when it is chosen. */
  onChoose: (tag: string) => void;
  /** Accessible name of the tag group. Default `Popular topics`. */
  label?: string;
}

/** Suggestion tags shown while the search box is empty. */
export function SuggestionTags({ tags, onChoose, label = 'Popular topics' }: SuggestionTagsProps) {
  if (tags.length === 0) return null;
  return (
    <ul className="khs-search-suggestion-tags" aria-label={label}>
      {tags.map((tag) => (
        <li key={tag}>
          <button type="button" className="khs-search-suggestion-tags__tag" onClick={() => onChoose(tag)}>
            {tag}
          </button>
        </li>
      ))}
    </ul>
  );
}
