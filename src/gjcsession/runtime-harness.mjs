// Runs inside an isolated bun child (never in the gjc process): loads ONE tool or hook module
// of an installed bundle with the constrained API and reports what it did. The parent reads
// only the line that starts with the nonce it sent on stdin; everything this file needs after
// the plugin module is loaded is captured first, so the module cannot forge or hide a report.
import { writeSync } from "node:fs";
import { pathToFileURL } from "node:url";

const stringify = JSON.stringify;
const exit = process.exit.bind(process);
const write = writeSync;
const freeze = Object.freeze;

const request = JSON.parse(await Bun.stdin.text());
const nonce = request.nonce;
const report = { imported: false, isFunction: false, denied: [], registrations: [], tools: [] };

function send() {
  write(1, `\n${nonce} ${stringify(report)}\n`);
  exit(0);
}

const describeError = (e) => String(e && typeof e === "object" && "message" in e ? e.message : e).slice(0, 500);

function deny(method) {
  return function denied() {
    report.denied[report.denied.length] = method;
    const error = new Error(`Plugin ${request.kind} "${request.name}" attempted denied API: ${method}`);
    error.code = "security_policy";
    throw error;
  };
}

// Tool factories build their parameter schemas with the toolkit the host hands them
// (gjc-notes §6.3: `typebox`, `zod`). The check looks only at names, events and execute, so a
// schema builder that accepts any chain of calls stands in for both here.
function schemaBuilder() {
  const target = function schema() {};
  const proxy = new Proxy(target, {
    get(_, prop) {
      if (prop === "then") return undefined;
      if (prop === Symbol.toPrimitive) return () => "[schema]";
      return proxy;
    },
    apply: () => proxy,
    construct: () => proxy,
  });
  return proxy;
}

const api = {
  logger: freeze({ info() {}, warn() {}, error() {}, debug() {} }),
  typebox: schemaBuilder(),
  zod: schemaBuilder(),
  registerCommand: deny("registerCommand"),
  sendMessage: deny("sendMessage"),
  appendEntry: deny("appendEntry"),
  registerMessageRenderer: deny("registerMessageRenderer"),
  registerRenderer: deny("registerRenderer"),
  exec: deny("exec"),
};
if (request.kind === "hook") {
  api.on = function on(event, handler) {
    report.registrations[report.registrations.length] = { event: typeof event === "string" ? event : String(event), handler: typeof handler };
  };
}
freeze(api);

let mod;
try {
  mod = await import(pathToFileURL(request.module).href);
  report.imported = true;
} catch (e) {
  report.importError = describeError(e);
  send();
}

const factory = mod && mod.default !== undefined ? mod.default : mod;
report.isFunction = typeof factory === "function";
if (!report.isFunction) send();

try {
  const value = await factory(api);
  if (request.kind === "tool") {
    const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
    for (const t of list) {
      const name = t && typeof t === "object" && typeof t.name === "string" ? t.name : null;
      report.tools[report.tools.length] = { name, execute: typeof (t && t.execute) };
    }
  }
} catch (e) {
  report.factoryError = describeError(e);
}
send();
