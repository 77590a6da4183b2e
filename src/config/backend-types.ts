/**
 * The backend types (`agents[].backend.type`, `--backend`), read from the provider descriptors
 * (`./provider-descriptors/`). Kept apart from the zod schema so the CLI can list them in
 * `--help` without loading zod.
 */
export { BACKEND_TYPES, type BackendType } from "./provider-descriptors/index.js";
