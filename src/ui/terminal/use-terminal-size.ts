/**
 * The terminal's size, kept current on resize (Ink redraws on resize; this hook makes the layout
 * follow). Defaults to 80 × 24 when the stream does not know its size.
 */
import { useStdout } from "ink";
import { useEffect, useState } from "react";

/** `{columns, rows}` of Ink's stdout. */
export function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout]);
  return size;
}
