/** Placeholder: Reset password is built by its issue. */
export default function Placeholder() {
  return (
    <main className="page">
      <h1>Reset password</h1>
      <p>This page is not built yet.</p>
    </main>
  );
}
