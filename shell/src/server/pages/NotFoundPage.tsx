/** 404 page body. */
export function NotFoundPage() {
  return (
    <section className="not-found">
      <h1>Page not found</h1>
      <p>
        The page you asked for does not exist. <a href="/">Back to the latest articles</a>.
      </p>
    </section>
  );
}
