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
    report.registrations[report.registrations.length] = {
      event: typeof event === "string" ? event : String(event),
      handler: typeof handler,
    };
  };
}
freeze(api);

// Deferred calls: a factory may schedule work past its return (a timer, an immediate, a
// promise chain) that calls a denied API later. Timers are virtual here: recorded, then run
// right after the factory, whatever their delay (an interval once), together with the promise
// jobs they start, until nothing is left or a bound is reached. So a deferred call is seen in
// the same run, without waiting for real time.
const realImmediate = setImmediate;
const pending = [];
let timerId = 1;
const virtual = (repeat) =>
  function schedule(fn, delay, ...args) {
    const id = timerId++;
    if (typeof fn === "function") pending[pending.length] = { id, fn, args, delay: Number(delay) || 0, repeat };
    return {
      id,
      ref() {
        return this;
      },
      unref() {
        return this;
      },
      hasRef: () => false,
      refresh() {
        return this;
      },
      [Symbol.toPrimitive]: () => id,
    };
  };
const cancel = (handle) => {
  const id = typeof handle === "object" && handle !== null ? handle.id : handle;
  const i = pending.findIndex((t) => t.id === id);
  if (i !== -1) pending.splice(i, 1);
};
globalThis.setTimeout = virtual(false);
globalThis.setInterval = virtual(true);
globalThis.setImmediate = (fn, ...args) => virtual(false)(fn, 0, ...args);
globalThis.clearTimeout = cancel;
globalThis.clearInterval = cancel;
globalThis.clearImmediate = cancel;
const settle = () => new Promise((resolve) => realImmediate(resolve));
// A rejection from deferred work (a denied call in a promise chain) must not end the child
// before the report: it is recorded by the denied stub already.
process.on("unhandledRejection", () => {});

async function drainDeferred() {
  for (let round = 0; round < 100; round++) {
    await settle();
    if (pending.length === 0) {
      await settle();
      if (pending.length === 0) return;
    }
    const due = pending.splice(0).sort((a, b) => a.delay - b.delay);
    for (const t of due) {
      try {
        await t.fn(...t.args);
      } catch {
        // a denied call throws; it is already recorded
      }
    }
  }
}

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
await drainDeferred();
send();
