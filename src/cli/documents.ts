/**
 * The one document gjc prints before a verb is known (an unknown command, a refused group
 * option, with --json): the error envelope under `gjc/error@1` (src/cli/main.ts), as a closed
 * TypeBox schema; docs/json/error.schema.json is generated from it (`bun scripts/gen-verb-schemas.ts`).
 */
import { errorDocument } from "../store/documents.ts";

export const CLI_DOCUMENTS = {
  "gjc/error@1": {
    file: "error.schema.json",
    title: "gjc --json refused before a verb was chosen",
    schema: errorDocument("error"),
  },
};
