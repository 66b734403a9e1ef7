// The tool's TypeBox parameters are the binary's input shape without its rules: compared with
// `pi-ask schema input` (schemars) keyword by keyword, after resolving `$ref`s and reading a
// `oneOf` of string constants as an `enum`, once the rules are taken out of the binary's
// schema (`loosen`): the same properties with the same types, nothing required but
// `questions`, no pattern, minItems, enum, additionalProperties or if / else. pi then lets every call
// through to the binary, whose invalid_payload result names each problem for the model.
// Descriptions may differ (the model reads the TypeBox ones).

import assert from "node:assert/strict";
import { test } from "node:test";
import { createJiti } from "jiti";
import { bin, extension, run } from "./helpers.mjs";

const jiti = createJiti(import.meta.url);
const ext = await jiti.import(extension);

const VALIDATION_KEYWORDS = [
	"type",
	"properties",
	"required",
	"additionalProperties",
	"items",
	"minItems",
	"maxItems",
	"minLength",
	"maxLength",
	"pattern",
	"enum",
	"const",
	"minimum",
	"maximum",
	"uniqueItems",
	// A conditional rule (a secret question may have no options): kept as it is, then taken
	// out with the other rules (`loosen`).
	"if",
	"then",
	"else",
];

/** The validation keywords of `schema`, with `$ref`s into `root.$defs` resolved. */
export function normalize(schema, root = schema) {
	if (schema && typeof schema.$ref === "string") {
		const name = schema.$ref.replace(/^#\/\$defs\//, "");
		const target = root.$defs?.[name];
		if (!target) throw new Error(`unresolved $ref ${schema.$ref}`);
		const { $ref, ...rest } = schema;
		return normalize({ ...target, ...rest }, root);
	}
	const alternatives = schema.oneOf ?? schema.anyOf;
	if (alternatives && alternatives.every((a) => typeof a.const === "string")) {
		return { type: "string", enum: alternatives.map((a) => a.const) };
	}
	const out = {};
	for (const key of VALIDATION_KEYWORDS) {
		if (!(key in schema)) continue;
		const value = schema[key];
		if (key === "properties") {
			out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v, root)]));
		} else if (key === "items") {
			out.items = normalize(value, root);
		} else if (key === "required") {
			out.required = [...value].sort();
		} else {
			out[key] = value;
		}
	}
	for (const key of ["oneOf", "anyOf", "allOf", "not", "patternProperties", "prefixItems"]) {
		if (key in schema) throw new Error(`the comparison does not handle ${key}: ${JSON.stringify(schema)}`);
	}
	return out;
}

/** A normalized schema without its rules: the shape (types, properties) and the top level's `required` only. */
export function loosen(schema, top = true) {
	const out = {};
	for (const [key, value] of Object.entries(schema)) {
		if (["pattern", "minItems", "maxItems", "minLength", "maxLength", "enum", "additionalProperties", "uniqueItems", "if", "then", "else"].includes(key)) continue;
		if (key === "required" && !top) continue;
		if (key === "properties") out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, loosen(v, false)]));
		else if (key === "items") out.items = loosen(value, false);
		else out[key] = value;
	}
	return out;
}

test("the ask_user parameters are `pi-ask schema input` without its rules", async () => {
	const out = await run(bin, ["schema", "input"]);
	assert.equal(out.code, 0, out.stderr);
	const binary = JSON.parse(out.stdout);
	const typebox = normalize(JSON.parse(JSON.stringify(ext.askUserParameters)));
	assert.deepEqual(typebox, loosen(normalize(binary)));
	// Nothing of the binary's rules is left for pi to refuse a call with.
	const text = JSON.stringify(typebox);
	for (const rule of ["pattern", "minItems", "additionalProperties", "enum"]) assert.ok(!text.includes(`"${rule}"`), rule);
	assert.deepEqual(typebox.required, ["questions"]);
	assert.equal(typebox.properties.questions.items.required, undefined);
});

test("the comparison sees a difference in any validation keyword", () => {
	const base = { type: "object", properties: { a: { type: "string", pattern: "\\S" } }, required: ["a"] };
	const changed = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
	assert.notDeepEqual(normalize(base), normalize(changed));
	const viaRef = { $defs: { A: { type: "string", pattern: "\\S" } }, type: "object", properties: { a: { $ref: "#/$defs/A" } }, required: ["a"] };
	assert.deepEqual(normalize(viaRef), normalize(base));
	const oneOf = { oneOf: [{ type: "string", const: "x" }, { type: "string", const: "y" }] };
	assert.deepEqual(normalize(oneOf), { type: "string", enum: ["x", "y"] });
	// loosen keeps the shape: a property of another type, or one more or less, still differs.
	const strict = { type: "object", properties: { a: { type: "string", pattern: "\\S" }, n: { type: "array", items: { type: "object", properties: { b: { type: "boolean" } }, required: ["b"], additionalProperties: false }, minItems: 1 } }, required: ["a"], additionalProperties: false };
	assert.deepEqual(loosen(strict), { type: "object", properties: { a: { type: "string" }, n: { type: "array", items: { type: "object", properties: { b: { type: "boolean" } } } } }, required: ["a"] });
	assert.notDeepEqual(loosen(strict), loosen({ ...strict, properties: { ...strict.properties, a: { type: "number" } } }));
	assert.notDeepEqual(loosen(strict), loosen({ ...strict, properties: { ...strict.properties, c: { type: "string" } } }));
});
