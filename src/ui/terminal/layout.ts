/**
 * How the agents fit the terminal: side-by-side panels for a few agents on a wide terminal,
 * stacked panels on a narrow one, one line per agent when panels do not fit (many agents or a
 * short terminal). The live region always stays shorter than the terminal, so Ink can redraw it
 * in place on resize instead of scrolling (which would corrupt the screen).
 */

/** A layout: panels in `columns` per row of `panelHeight` rows each, or compact rows. */
export type AgentLayout =
  | { kind: "columns"; panelWidth: number; panelHeight: number }
  | { kind: "stacked"; panelWidth: number; panelHeight: number }
  | { kind: "compact"; visible: number };

/** Narrowest side-by-side panel (columns). */
const MIN_COLUMN_WIDTH = 30;
/** Smallest panel: border, header, status, one line of text. */
const MIN_PANEL_HEIGHT = 5;
const MAX_PANEL_HEIGHT = 10;
const MAX_STACKED_HEIGHT = 8;

/**
 * @param agents number of agents.
 * @param width terminal columns available.
 * @param height terminal rows available for the agents (the rest of the view already removed).
 */
export function chooseLayout(agents: number, width: number, height: number): AgentLayout {
  const count = Math.max(1, agents);
  if (count <= 4 && Math.floor(width / count) >= MIN_COLUMN_WIDTH && height >= MIN_PANEL_HEIGHT) {
    return {
      kind: "columns",
      panelWidth: Math.floor(width / count),
      panelHeight: Math.min(MAX_PANEL_HEIGHT, height),
    };
  }
  if (count <= 6 && count * MIN_PANEL_HEIGHT <= height) {
    return {
      kind: "stacked",
      panelWidth: width,
      panelHeight: Math.min(MAX_STACKED_HEIGHT, Math.floor(height / count)),
    };
  }
  // One line per agent; when even that does not fit, the last line says how many are hidden.
  return { kind: "compact", visible: count <= height ? count : Math.max(0, height - 1) };
}
