import type { HostedBundle } from "./bundle-directory.ts";

export interface LspProvider {
  plugin: string;
  pluginName: string;
  server: string;
  command: string;
}

export interface LspRoute {
  language: string;
  /** The single provider, or null when the language is in conflict (fails closed). */
  provider: LspProvider | null;
  /** Every eligible provider; more than one means conflict. */
  providers: LspProvider[];
}

/**
 * One provider per language (seed: "Exactly one active plugin may provide a language"). Every
 * eligible server counts, even two servers of one bundle; a language with several providers
 * is routed to none until policy removes the conflict.
 */
export function routeLanguages(eligible: { bundle: HostedBundle; serverIds: string[] }[]): LspRoute[] {
  const byLanguage = new Map<string, LspProvider[]>();
  for (const { bundle, serverIds } of eligible) {
    for (const server of bundle.manifest.codetwo.languageServers) {
      if (!serverIds.includes(server.id)) continue;
      for (const language of new Set(server.languages.map((l) => l.toLowerCase()))) {
        const list = byLanguage.get(language) ?? [];
        list.push({ plugin: bundle.id, pluginName: bundle.name, server: server.id, command: server.command });
        byLanguage.set(language, list);
      }
    }
  }
  return [...byLanguage.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([language, providers]) => ({ language, provider: providers.length === 1 ? providers[0] : null, providers }));
}
