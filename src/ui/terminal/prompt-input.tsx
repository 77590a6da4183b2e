/**
 * The chat's input line: `› ` and what the user types, with a block cursor. Enter sends,
 * Backspace deletes, ←/→ move, ↑/↓ recall earlier lines, Ctrl+U clears, Ctrl+A/Ctrl+E jump.
 * Keys the chat owns (Ctrl+C, Ctrl+P, Ctrl+R, Ctrl+D) are handled by the chat app, not here.
 */
import { Text, useInput } from "ink";
import { useEffect, useRef, useState, type ReactElement } from "react";

/** Props of {@link PromptInput}. */
export interface PromptInputProps {
  /** Called with the line when Enter is pressed (not for blank lines). */
  onSubmit: (line: string) => void;
  /** Receives keys only while true. */
  active: boolean;
  /** Earlier lines, oldest first, for ↑/↓. */
  history: readonly string[];
  /** Called when the line becomes empty or non-empty (Ctrl+C/Ctrl+D mean different things). */
  onEmptyChange?: (empty: boolean) => void;
  /** Changing this number clears the line (Ctrl+C on a non-empty line). */
  clearCount?: number;
}

/**
 * A one-line editor. The line lives in a ref, not only in React state: keys that arrive in one
 * chunk (typing fast, a paste followed by Enter) are applied one after another to the latest
 * line, never to a stale render's copy.
 */
export function PromptInput({
  onSubmit,
  active,
  history,
  onEmptyChange,
  clearCount = 0,
}: PromptInputProps): ReactElement {
  const line = useRef({ value: "", cursor: 0, recall: null as number | null });
  const [, setVersion] = useState(0);
  const set = (value: string, cursor = value.length) => {
    const before = line.current.value;
    if ((value === "") !== (before === "")) onEmptyChange?.(value === "");
    line.current.value = value;
    line.current.cursor = Math.max(0, Math.min(value.length, cursor));
    setVersion((version) => version + 1);
  };
  const cleared = useRef(clearCount);
  useEffect(() => {
    if (cleared.current === clearCount) return;
    cleared.current = clearCount;
    set("");
  }, [clearCount]);
  useInput(
    (input, key) => {
      const { value, cursor, recall } = line.current;
      if (key.ctrl && ["c", "p", "r", "d"].includes(input)) return;
      const submit = (text: string) => {
        line.current.recall = null;
        set("");
        if (text.trim() !== "") onSubmit(text.trim());
      };
      if (key.return) return submit(value);
      if (key.backspace || key.delete) {
        if (cursor > 0) set(value.slice(0, cursor - 1) + value.slice(cursor), cursor - 1);
        return;
      }
      if (key.leftArrow) return set(value, cursor - 1);
      if (key.rightArrow) return set(value, cursor + 1);
      if (key.upArrow || key.downArrow) {
        if (history.length === 0) return;
        const from = recall ?? history.length;
        const to = key.upArrow ? Math.max(0, from - 1) : from + 1;
        line.current.recall = to >= history.length ? null : to;
        return set(to >= history.length ? "" : history[to]!);
      }
      if (key.ctrl && input === "u") return set("");
      if (key.ctrl && input === "a") return set(value, 0);
      if (key.ctrl && input === "e") return set(value);
      if (key.ctrl || key.meta || key.escape || key.tab) return;
      if (input) {
        // A chunk may carry text and Enter together (fast typing, a paste): a final line break
        // sends the line; line breaks inside become spaces.
        const sends = /[\r\n]$/.test(input);
        const text = input.replace(/[\r\n]+$/, "").replace(/\r\n|\r|\n/g, " ");
        const next = value.slice(0, cursor) + text + value.slice(cursor);
        if (sends) return submit(next);
        set(next, cursor + text.length);
      }
    },
    { isActive: active },
  );
  const { value, cursor } = line.current;
  const before = value.slice(0, cursor);
  const at = value.slice(cursor, cursor + 1) || " ";
  const after = value.slice(cursor + 1);
  return (
    <Text wrap="wrap">
      <Text color="cyan" bold>
        ›{" "}
      </Text>
      {value === "" && active ? (
        <Text>
          <Text inverse> </Text>
          <Text dimColor>Ask the team, or /help</Text>
        </Text>
      ) : (
        <Text>
          {before}
          {active ? <Text inverse>{at}</Text> : at}
          {after}
        </Text>
      )}
    </Text>
  );
}
