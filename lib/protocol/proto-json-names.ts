/**
 * ProtoJSON field names (v1.0, adr-001): a parser must accept the original proto field names
 * (`task_id`, `history_length`) as well as their lowerCamelCase JSON names (`taskId`). This
 * renames the proto names to the JSON names, so one set of schemas reads both. Free-form
 * values (google.protobuf.Struct / Value: `metadata`, a data part's `data`, an extension's
 * `params`) keep their keys exactly as sent. When both spellings are present the JSON name wins.
 */
const FREE_FORM = new Set(['metadata', 'data', 'params']);

const jsonName = (key: string): string => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Whether any field name outside a free-form value is a proto name (has an underscore). */
function hasProtoNames(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasProtoNames);
  if (!value || typeof value !== 'object') return false;
  for (const [key, field] of Object.entries(value)) {
    if (key.includes('_')) return true;
    if (!FREE_FORM.has(key) && hasProtoNames(field)) return true;
  }
  return false;
}

function renamed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(renamed);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (key === '__proto__') continue;
    const name = key.includes('_') ? jsonName(key) : key;
    if (name !== key && Object.hasOwn(value, name)) continue;
    out[name] = FREE_FORM.has(name) ? field : renamed(field);
  }
  return out;
}

/** The value with proto names renamed to JSON names; the same value when it has none (the usual case). */
export function toProtoJsonNames(value: unknown): unknown {
  return hasProtoNames(value) ? renamed(value) : value;
}
