import type { Template } from 'aws-cdk-lib/assertions';

/**
 * Typed reading of a synthesized CloudFormation template for the infra tests. The CDK hands
 * resources back as `any`; here they come back with `unknown` property values, and a test
 * narrows each value it reads with `at` and the `as*` checks below. A value of another shape
 * than the test expects fails the test with the path it expected, where plain property access
 * would have thrown a TypeError on `undefined`.
 */
export type JsonObject = Record<string, unknown>;

export interface CfnResource {
  Type: string;
  /** `{}` for the few resource types that have no properties. */
  Properties: JsonObject;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: string | string[];
}

const show = (value: unknown) => (value === undefined ? 'undefined' : JSON.stringify(value));

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value itself if it is a JSON object (not an array, not null); throws otherwise. */
export function asObject(value: unknown, what = 'value'): JsonObject {
  if (!isObject(value)) throw new TypeError(`${what}: expected an object, got ${show(value)}`);
  return value;
}

/** The value itself if it is an array; throws otherwise. */
export function asArray(value: unknown, what = 'value'): unknown[] {
  if (!Array.isArray(value)) throw new TypeError(`${what}: expected an array, got ${show(value)}`);
  return value;
}

/** An array of JSON objects (origins, cache behaviours, policy statements, alarm metrics …). */
export function asObjects(value: unknown, what = 'value'): JsonObject[] {
  return asArray(value, what).map((item, index) => asObject(item, `${what}[${index}]`));
}

/** The value itself if it is a string; throws otherwise. */
export function asString(value: unknown, what = 'value'): string {
  if (typeof value !== 'string') throw new TypeError(`${what}: expected a string, got ${show(value)}`);
  return value;
}

/** An array of strings (header names, record fields …). */
export function asStrings(value: unknown, what = 'value'): string[] {
  return asArray(value, what).map((item, index) => asString(item, `${what}[${index}]`));
}

const stepInto = (value: unknown, step: string | number, where: string): unknown =>
  typeof step === 'number' ? asArray(value, where)[step] : asObject(value, where)[step];

const pathName = (path: Array<string | number>, length: number) => path.slice(0, length).join('.') || 'value';

/**
 * The value at a path of object keys and array indexes, like `value.A.B[1].C`: every step but
 * the last must exist (an object for a key, an array for an index), the last may be absent.
 */
export function at(value: unknown, ...path: Array<string | number>): unknown {
  return path.reduce<unknown>((current, step, index) => stepInto(current, step, pathName(path, index)), value);
}

/** Like `at`, but a missing step gives `undefined`, like `value?.A?.B[1]?.C`. */
export function maybeAt(value: unknown, ...path: Array<string | number>): unknown {
  let current = value;
  for (const [index, step] of path.entries()) {
    if (current === undefined || current === null) return undefined;
    current = stepInto(current, step, pathName(path, index));
  }
  return current;
}

const optionalString = (value: unknown, what: string): string | undefined => {
  if (value !== undefined && typeof value !== 'string') throw new TypeError(`${what}: expected a string, got ${show(value)}`);
  return value;
};

function toResource(id: string, value: unknown): CfnResource {
  const resource = asObject(value, id);
  const dependsOn = resource.DependsOn;
  return {
    Type: asString(resource.Type, `${id}.Type`),
    Properties: resource.Properties === undefined ? {} : asObject(resource.Properties, `${id}.Properties`),
    DeletionPolicy: optionalString(resource.DeletionPolicy, `${id}.DeletionPolicy`),
    UpdateReplacePolicy: optionalString(resource.UpdateReplacePolicy, `${id}.UpdateReplacePolicy`),
    DependsOn: Array.isArray(dependsOn) ? asStrings(dependsOn, `${id}.DependsOn`) : optionalString(dependsOn, `${id}.DependsOn`),
  };
}

const toResources = (resources: unknown): Record<string, CfnResource> =>
  Object.fromEntries(Object.entries(asObject(resources, 'Resources')).map(([id, value]) => [id, toResource(id, value)]));

/** The resources of one type (optionally matching `props`, as `Template.findResources`), by logical ID. */
export function resourcesOf(template: Template, type: string, props?: object): Record<string, CfnResource> {
  return toResources(template.findResources(type, props));
}

/** The resources of one type, in template order. */
export function resourceList(template: Template, type: string, props?: object): CfnResource[] {
  return Object.values(resourcesOf(template, type, props));
}

/** The resource of this type with this logical ID; throws if the template has none. */
export function resourceOf(template: Template, type: string, id: string): CfnResource {
  const resource = resourcesOf(template, type)[id];
  if (!resource) throw new Error(`no ${type} with the logical ID ${id}`);
  return resource;
}

/** Every resource of the template, by logical ID. */
export function allResources(template: Template): Record<string, CfnResource> {
  return toResources(asObject(template.toJSON(), 'template').Resources);
}
