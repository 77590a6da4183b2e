/**
 * `GET /v1/models` and `GET /v1/models/{id}` of `coord serve` (docs/server.md "Endpoints"): the
 * served team as one model; without a server config, the built-in examples that do not act
 * (`@examples/NAME`) and the `--teams` folder's files (`path:FILE`).
 */
import type { Hono } from "hono";
import { ApiError } from "./api-error.js";
import type { AppOptions } from "./app-options.js";
import { quietExamples, teamFiles } from "./served-team.js";

/** An OpenAI model object: `{id, object: "model", created (epoch s), owned_by: "coord"}`. */
export interface ModelObject {
  id: string;
  object: "model";
  created: number;
  owned_by: "coord";
}

/**
 * Adds both routes to `app`. An unknown id is a 404 `model_not_found` (an {@link ApiError} the
 * app's error handler sends).
 * @param now epoch ms, for `created`.
 */
export function addModelRoutes(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Hono app's variables
  app: Hono<any>,
  options: Pick<AppOptions, "team" | "modelRouting" | "cwd" | "env" | "teamsDir">,
  now: () => number,
): void {
  let quiet: Promise<string[]> | undefined;

  /** The model ids `GET /v1/models` lists. */
  async function modelIds(): Promise<string[]> {
    if (options.team) return [options.team.id];
    if (options.modelRouting === false) return [];
    quiet ??= quietExamples({ cwd: options.cwd, env: options.env });
    return [...(await quiet), ...(await teamFiles(options.teamsDir))];
  }
  const modelObject = (id: string): ModelObject => ({
    id,
    object: "model",
    created: Math.floor(now() / 1000),
    owned_by: "coord",
  });

  app.get("/v1/models", async (c) =>
    c.json({ object: "list", data: (await modelIds()).map(modelObject) }),
  );

  // Ids hold slashes (`coord/team`, `@examples/NAME`): the rest of the path is the id.
  app.get("/v1/models/:id{.+}", async (c) => {
    const id = decodeURIComponent(c.req.param("id"));
    if ((await modelIds()).includes(id)) return c.json(modelObject(id));
    throw new ApiError(
      404,
      `the model ${JSON.stringify(id)} does not exist on this server: GET /v1/models lists the ones it serves`,
      { param: "model", code: "model_not_found" },
    );
  });
}
