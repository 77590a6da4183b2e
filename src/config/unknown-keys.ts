/**
 * Finds the keys a config holds that the schema does not know (STYLE.md rule 8: they are
 * warnings with their dotted path, never failures, so configs written for MassGen still load).
 */
import { z } from "zod";
import { isPlainObject } from "./expand-env.js";
import type { KeyPath } from "./key-path.js";

/** A key the schema does not declare, and the keys its object does declare (for suggestions). */
export interface UnknownKey {
  path: KeyPath;
  known: readonly string[];
}

/**
 * Walks `value` alongside `schema` and returns every object key the schema does not declare.
 * Loose objects (`.loose()`) and records accept any key; the children of an unknown key are not
 * reported separately. Values of the wrong type are skipped (validation reports them).
 */
export function findUnknownKeys(
  schema: z.ZodType,
  value: unknown,
  path: KeyPath = [],
): UnknownKey[] {
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodReadonly ||
    schema instanceof z.ZodCatch
  ) {
    return findUnknownKeys(schema.def.innerType as z.ZodType, value, path);
  }
  if (schema instanceof z.ZodPipe) return findUnknownKeys(schema.def.in as z.ZodType, value, path);
  if (schema instanceof z.ZodLazy)
    return findUnknownKeys(schema.def.getter() as z.ZodType, value, path);
  if (schema instanceof z.ZodArray && Array.isArray(value)) {
    const element = schema.def.element as z.ZodType;
    return value.flatMap((item: unknown, index) =>
      findUnknownKeys(element, item, [...path, index]),
    );
  }
  if (schema instanceof z.ZodRecord && isPlainObject(value)) {
    const valueType = schema.def.valueType as z.ZodType;
    return Object.entries(value).flatMap(([key, item]) =>
      findUnknownKeys(valueType, item, [...path, key]),
    );
  }
  if (schema instanceof z.ZodUnion) {
    const matching = (schema.def.options as z.ZodType[]).filter(
      (option) => option.safeParse(value).success,
    );
    return matching.length === 1 && matching[0] !== undefined
      ? findUnknownKeys(matching[0], value, path)
      : [];
  }
  if (schema instanceof z.ZodObject && isPlainObject(value)) {
    const shape = schema.shape as Record<string, z.ZodType>;
    const catchall = schema.def.catchall;
    const acceptsAnyKey = catchall !== undefined && !(catchall instanceof z.ZodNever);
    return Object.entries(value).flatMap(([key, item]) => {
      const child = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (child !== undefined) return findUnknownKeys(child, item, [...path, key]);
      return acceptsAnyKey ? [] : [{ path: [...path, key], known: Object.keys(shape) }];
    });
  }
  return [];
}
