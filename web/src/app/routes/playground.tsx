/** Hidden test page (reachable from a Misc menu that is off by default). */
export function PlaygroundPage() {
  return (
    <div>
      <h1 className="ds-text-heading--2xl">Playground</h1>
      <p>A page for trying components. Nothing here is part of the product.</p>
    </div>
  );
}
