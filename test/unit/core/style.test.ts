import { describe, expect, test } from "bun:test";
import { createContext } from "../../../src/core/context.ts";
import { colorEnabled } from "../../../src/core/style.ts";

describe("colorEnabled", () => {
  test("NO_COLOR and FORCE_COLOR decide without asking whether the stream is a terminal", () => {
    let asked = 0;
    const tty = () => {
      asked++;
      return true;
    };
    expect(colorEnabled({ NO_COLOR: "1" }, tty)).toBe(false);
    expect(colorEnabled({ NO_COLOR: "1", FORCE_COLOR: "1" }, tty)).toBe(false);
    expect(colorEnabled({ FORCE_COLOR: "1" }, tty)).toBe(true);
    expect(colorEnabled({ FORCE_COLOR: "0" }, tty)).toBe(false);
    expect(colorEnabled({ FORCE_COLOR: "false" }, tty)).toBe(false);
    expect(asked).toBe(0);
  });

  test("otherwise the terminal answers, as a value or a function", () => {
    expect(colorEnabled({}, true)).toBe(true);
    expect(colorEnabled({}, false)).toBe(false);
    expect(colorEnabled({ NO_COLOR: "" }, () => true)).toBe(true);
    expect(colorEnabled({}, () => false)).toBe(false);
  });

  test("createContext styles each stream by its own terminal answer", () => {
    const ctx = createContext({ env: {}, cwd: "/", stdoutTTY: () => true, stderrTTY: () => false });
    expect(ctx.out.enabled).toBe(true);
    expect(ctx.err.enabled).toBe(false);
    expect(ctx.out.red("x")).toBe("\x1b[31mx\x1b[39m");
    expect(
      createContext({
        env: { NO_COLOR: "1" },
        cwd: "/",
        stdoutTTY: () => {
          throw new Error("not asked");
        },
      }).out.enabled,
    ).toBe(false);
  });
});
