/** Placeholder: Users is built by its issue. */
export default function Placeholder() {
  return (
    <main className="page">
      <h1>Users</h1>
      <p>This page is not built yet.</p>
    </main>
  );
}
