/**
 * Whether the Ink views can draw live on a stream. Ink (through `is-in-ci`, the same package
 * imported here so the two always agree) treats a set `CI` or `CONTINUOUS_INTEGRATION` variable as
 * "no live terminal" and then writes only the last frame when it unmounts: on a CI runner with a
 * pseudo-terminal a run or a viewer would show nothing until it ends. Callers choose their text
 * display instead (trace lines, the live status block, the viewer's text replay).
 *
 * Kept apart from the Ink modules (src/ui/terminal/), which are lazy-imported: this costs one tiny
 * import.
 */
import isInCi from "is-in-ci";

/** True when `stream` is a TTY and no CI variable keeps Ink from redrawing. */
export function inkCanDraw(stream: { isTTY?: boolean | undefined }): boolean {
  return stream.isTTY === true && !isInCi;
}
