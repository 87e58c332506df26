import { expect, test } from "bun:test";
import { c2UrlVerdict } from "../../../src/c2session/mcp-servers.ts";

test("C2 mcp.json URLs follow Agent Plugins: https anywhere, http only to loopback", () => {
  for (const ok of [
    "https://mcp.example.com/mcp",
    "https://10.0.0.5/mcp",
    "http://127.0.0.1:8080/mcp",
    "http://localhost:3000/sse",
    "http://[::1]:9/mcp",
  ]) {
    expect([ok, c2UrlVerdict(ok).ok]).toEqual([ok, true]);
  }
  expect(c2UrlVerdict("http://[::1]:9/mcp")).toMatchObject({ ok: true, host: "::1" });
  for (const bad of [
    "http://mcp.example.com/mcp",
    "https://user:pw@mcp.example.com/",
    "https://mcp.example.com/#x",
    "ws://127.0.0.1/",
    "https://${HOST}/mcp",
    "not a url",
  ]) {
    expect([bad, c2UrlVerdict(bad).ok]).toEqual([bad, false]);
  }
});
