/** Admin messages placeholder (spec part 2). */
export function ManageMessagesPage() {
  return (
    <div>
      <h1 className="ds-text-heading--2xl">Manage Messages</h1>
      <p>Managing messages is not available yet.</p>
    </div>
  );
}
