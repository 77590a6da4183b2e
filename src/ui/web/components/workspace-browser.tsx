import { type ReactElement, useCallback, useEffect, useState } from "react";
import type { WorkspaceRoot } from "../../../server/web/web-host.js";
import type { FileEntry, FileView } from "../../../server/web/web-host.js";
import { MarkdownView } from "./markdown-view.js";

/** `key` is `<session>/<turn>`: the API path of the run. */
function api(runKey: string, what: string, params: Record<string, string | number> = {}): string {
  const query = new URLSearchParams(
    Object.entries(params).map(([name, value]) => [name, String(value)]),
  );
  return `api/runs/${runKey.split("/").map(encodeURIComponent).join("/")}/${what}${query.size > 0 ? `?${query}` : ""}`;
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
  return body;
}

/**
 * The run's workspaces (the final result, then per agent its live workspace while the run goes on
 * and its snapshots, newest first): a file tree and a preview of text, Markdown and images.
 * Refreshes every 2 s while `live`, so live files change and snapshots taken as answers are
 * accepted show up; the chosen root stays chosen (roots are named by id) while it is offered.
 */
export function WorkspaceBrowser({ runKey, live }: { runKey: string; live: boolean }) {
  const [roots, setRoots] = useState<WorkspaceRoot[] | null>(null);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [listings, setListings] = useState<Record<string, FileEntry[]>>({});
  const [expanded, setExpanded] = useState<string[]>([""]);
  const [selected, setSelected] = useState<string | null>(null);
  const [preview, setPreview] = useState<FileView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => setTick((value) => value + 1), 2000);
    return () => clearInterval(timer);
  }, [live]);

  useEffect(() => {
    getJson<WorkspaceRoot[]>(api(runKey, "roots")).then(
      (found) => {
        setRoots(found);
        // The first snapshot shown stays chosen when newer ones arrive.
        setChosenId((previous) => previous ?? found[0]?.id ?? null);
      },
      (caught: Error) => setError(caught.message),
    );
    // `live` too: once more when the run ends, for the final result taken just before.
  }, [runKey, tick, live]);

  // The chosen root (else the first, should the chosen one be gone: a live workspace at the end).
  const rootId = roots?.find((root) => root.id === chosenId)?.id ?? roots?.[0]?.id ?? null;

  // Another root's listings (and errors) are not this one's.
  useEffect(() => {
    setListings({});
    setError(null);
  }, [rootId]);

  const load = useCallback(
    async (path: string) => {
      if (rootId === null) return;
      const view = await getJson<FileView>(api(runKey, "files", { root: rootId, path }));
      if (view.kind === "dir") setListings((previous) => ({ ...previous, [path]: view.entries }));
    },
    [runKey, rootId],
  );

  useEffect(() => {
    if (!roots || roots.length === 0) return;
    for (const path of expanded) load(path).catch((caught: Error) => setError(caught.message));
  }, [roots, expanded, load]);

  useEffect(() => {
    if (selected === null || rootId === null) return setPreview(null);
    getJson<FileView>(api(runKey, "files", { root: rootId, path: selected })).then(
      setPreview,
      (caught: Error) => setError(caught.message),
    );
  }, [runKey, rootId, selected, tick]);

  if (roots === null) return <p className="muted">Loading workspaces…</p>;
  if (roots.length === 0 || rootId === null) {
    return (
      <p className="muted" data-testid="workspace-empty">
        No workspaces{live ? " yet" : ""}: an agent with a workspace (<code>backend.cwd</code>)
        shows it here live while the run goes on, copied each time its answer is accepted, and the
        presenter's once more as the final result.
      </p>
    );
  }
  const chooseRoot = (id: string) => {
    setChosenId(id);
    setListings({});
    setExpanded([""]);
    setSelected(null);
  };
  const toggle = (path: string) =>
    setExpanded((previous) =>
      previous.includes(path) ? previous.filter((item) => item !== path) : [...previous, path],
    );

  const tree = (path: string, depth: number): ReactElement[] =>
    (listings[path] ?? []).flatMap((entry) => {
      const child = path === "" ? entry.name : `${path}/${entry.name}`;
      const open = expanded.includes(child);
      const row = (
        <li key={child} style={{ paddingLeft: `${depth * 14}px` }}>
          <button
            className={`tree-item ${entry.kind}${selected === child ? " selected" : ""}`}
            data-testid="tree-item"
            data-path={child}
            onClick={() => (entry.kind === "dir" ? toggle(child) : setSelected(child))}
          >
            {entry.kind === "dir" ? (open ? "▾ " : "▸ ") : ""}
            {entry.name}
          </button>
        </li>
      );
      return entry.kind === "dir" && open ? [row, ...tree(child, depth + 1)] : [row];
    });

  return (
    <div className="workspace" data-testid="workspace">
      <div className="root-tabs">
        {groupRoots(roots).map(({ heading, roots: group }) => (
          <div className="root-group" key={heading} data-testid="workspace-group">
            <span className="root-heading">{heading}</span>
            {group.map((root) => (
              <button
                key={root.id}
                className={root.id === rootId ? "active" : ""}
                onClick={() => chooseRoot(root.id)}
                title={`${rootTitle(root)}: ${root.path}`}
                data-testid="workspace-root"
                data-root={root.id}
              >
                {root.label}
                {root.latest && group.filter((other) => !other.live).length > 1 ? " (latest)" : ""}
              </button>
            ))}
          </div>
        ))}
      </div>
      {error && <p className="error-line">{error}</p>}
      <div className="workspace-panes">
        <ul className="tree">
          {(listings[""] ?? []).length === 0 ? <li className="muted">Empty</li> : tree("", 0)}
        </ul>
        <div className="preview" data-testid="file-preview">
          {preview === null ? (
            <p className="muted">Choose a file to preview it.</p>
          ) : preview.kind === "dir" ? null : (
            <>
              <div className="preview-head">
                <code>{preview.path}</code> <span className="muted">{preview.size} bytes</span>
              </div>
              {preview.preview === "markdown" && <MarkdownView text={preview.text ?? ""} />}
              {preview.preview === "text" && <pre>{preview.text}</pre>}
              {preview.preview === "image" && (
                <img
                  alt={preview.path}
                  src={api(runKey, "image", { root: rootId, path: preview.path })}
                />
              )}
              {preview.preview === "binary" && <p className="muted">A binary file: no preview.</p>}
              {preview.preview === "too-large" && <p className="muted">Too large to preview.</p>}
            </>
          )}
        </div>
      </div>
    </div>
  );
}

function rootTitle(root: WorkspaceRoot): string {
  if (root.final) return `${root.agentId}'s workspace after the final answer`;
  if (root.live) return `${root.agentId}'s workspace now, as the run goes on (read-only)`;
  return `${root.agentId}'s workspace with answer ${root.snapshot}`;
}

/** The final result on its own, then one group per agent (roots come in that order). */
function groupRoots(roots: WorkspaceRoot[]): { heading: string; roots: WorkspaceRoot[] }[] {
  const groups: { heading: string; roots: WorkspaceRoot[] }[] = [];
  for (const root of roots) {
    const heading = root.final ? `Result (by ${root.agentId})` : root.agentId;
    const group = groups.find((candidate) => candidate.heading === heading);
    if (group) group.roots.push(root);
    else groups.push({ heading, roots: [root] });
  }
  return groups;
}
