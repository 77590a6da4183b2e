/**
 * Finds the keys a config holds that the schema does not know (CONTRIBUTING.md rule 8: they are
 * warnings with their dotted path, never failures, so configs written for MassGen still load).
 */
import { z } from "zod";
import { isPlainObject } from "./expand-env.js";
import type { KeyPath } from "./key-path.js";

/** A key the schema does not declare, and the keys its object does declare (for suggestions). */
export interface UnknownKey {
  path: KeyPath;
  known: readonly string[];
  /**
   * The keys one level down: each object-valued declared key of the same object (`backend`) with
   * the keys its object declares (for "did you mean agents[0].backend.append_system_prompt").
   */
  below: readonly { key: string; known: readonly string[] }[];
  /** The keys one level up, when the object is a keyed member of another (not a list item). */
  above?: readonly string[] | undefined;
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
  above?: readonly string[],
): UnknownKey[] {
  if (isWrapper(schema)) {
    return findUnknownKeys(schema.def.innerType as z.ZodType, value, path, above);
  }
  if (schema instanceof z.ZodPipe)
    return findUnknownKeys(schema.def.in as z.ZodType, value, path, above);
  if (schema instanceof z.ZodLazy)
    return findUnknownKeys(schema.def.getter() as z.ZodType, value, path, above);
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
      ? findUnknownKeys(matching[0], value, path, above)
      : [];
  }
  if (schema instanceof z.ZodObject && isPlainObject(value)) {
    const shape = schema.shape as Record<string, z.ZodType>;
    const catchall = schema.def.catchall;
    const acceptsAnyKey = catchall !== undefined && !(catchall instanceof z.ZodNever);
    const known = Object.keys(shape);
    return Object.entries(value).flatMap(([key, item]) => {
      const child = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (child !== undefined) return findUnknownKeys(child, item, [...path, key], known);
      if (acceptsAnyKey) return [];
      return [{ path: [...path, key], known, below: objectMembers(shape), above }];
    });
  }
  return [];
}

/** The object-valued keys of `shape` with the keys each declares. */
function objectMembers(
  shape: Record<string, z.ZodType>,
): { key: string; known: readonly string[] }[] {
  return Object.entries(shape).flatMap(([key, child]) => {
    const object = innerObject(child);
    return object === undefined ? [] : [{ key, known: Object.keys(object.shape) }];
  });
}

/** A schema that only wraps another (`.optional()`, `.default()`, …): its `def.innerType` is it. */
function isWrapper(
  schema: z.ZodType,
): schema is
  z.ZodOptional | z.ZodNullable | z.ZodDefault | z.ZodPrefault | z.ZodReadonly | z.ZodCatch {
  return (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodReadonly ||
    schema instanceof z.ZodCatch
  );
}

/** The object schema inside optional / default / pipe / lazy wrappers, if that is what it is. */
function innerObject(schema: z.ZodType): z.ZodObject | undefined {
  for (let depth = 0; depth < 8; depth++) {
    if (schema instanceof z.ZodObject) return schema;
    if (isWrapper(schema)) {
      schema = schema.def.innerType as z.ZodType;
    } else if (schema instanceof z.ZodPipe) schema = schema.def.in as z.ZodType;
    else if (schema instanceof z.ZodLazy) schema = schema.def.getter() as z.ZodType;
    else return undefined;
  }
  return undefined;
}
