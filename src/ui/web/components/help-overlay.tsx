/** The keyboard shortcuts of the live page, listed on `?`. */
export const SHORTCUTS: ReadonlyArray<[string, string]> = [
  ["?", "show or hide this help"],
  ["/", "type a question"],
  ["Ctrl+Enter", "send the question (in the question box)"],
  ["f", "go to the final answer"],
  ["t", "timeline"],
  ["a", "all answers"],
  ["u", "usage and tools"],
  ["w", "workspace browser"],
  ["[ / ]", "previous / next turn"],
  ["s", "sessions"],
  ["n", "new session"],
  ["Esc", "close a panel, leave the question box"],
];

export function HelpOverlay({ onClose }: { onClose: () => void }) {
  return (
    <div className="overlay" onClick={onClose} data-testid="help">
      <div
        className="dialog"
        onClick={(event) => event.stopPropagation()}
        role="dialog"
        aria-label="Keyboard shortcuts"
      >
        <h2>Keyboard shortcuts</h2>
        <table>
          <tbody>
            {SHORTCUTS.map(([keys, what]) => (
              <tr key={keys}>
                <td>
                  <kbd>{keys}</kbd>
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button onClick={onClose}>Close</button>
      </div>
    </div>
  );
}
