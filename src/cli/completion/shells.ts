import type { CompletionEntry } from "./model.ts";

const key = (path: string[]) => path.join(" ");
const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** bash: a function that finds the deepest known command path, then offers its words. */
export function bashScript(model: CompletionEntry[]): string {
  const cases = model
    .map((e) => {
      const words = [...e.children.map((c) => c.name), ...e.options.map((o) => `--${o.name}`)].join(" ");
      return `    ${sq(key(e.path))}) words=${sq(words)} ;;`;
    })
    .join("\n");
  return `# gjc bash completion; load with: source <(gjc completion bash)
_gjc_complete() {
  local cur path="" candidate i words=""
  cur="\${COMP_WORDS[COMP_CWORD]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    [[ "\${COMP_WORDS[i]}" == -* ]] && continue
    candidate="\${path:+$path }\${COMP_WORDS[i]}"
    if _gjc_known "$candidate"; then path="$candidate"; fi
  done
  case "$path" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
_gjc_known() {
  case "$1" in
${model.map((e) => `    ${sq(key(e.path))}) return 0 ;;`).join("\n")}
  esac
  return 1
}
complete -o default -F _gjc_complete gjc
`;
}

/** zsh: one _describe list per command path, with descriptions. */
export function zshScript(model: CompletionEntry[]): string {
  const esc = (s: string) => s.replace(/\\/g, "\\\\").replace(/:/g, "\\:").replace(/'/g, `'\\''`);
  const cases = model
    .map((e) => {
      const items = [
        ...e.children.map((c) => `'${esc(c.name)}:${esc(c.description)}'`),
        ...e.options.map((o) => `'--${esc(o.name)}:${esc(o.description)}'`),
      ].join(" ");
      return `    ${sq(key(e.path))}) items=(${items}) ;;`;
    })
    .join("\n");
  return `#compdef gjc
# gjc zsh completion; load with: source <(gjc completion zsh)
_gjc() {
  local path="" candidate w
  local -a items
  for w in \${words[2,CURRENT-1]}; do
    [[ "$w" == -* ]] && continue
    candidate="\${path:+$path }$w"
    case "$candidate" in
${model.map((e) => `      ${sq(key(e.path))}) path="$candidate" ;;`).join("\n")}
    esac
  done
  case "$path" in
${cases}
  esac
  _describe 'gjc' items
}
compdef _gjc gjc
`;
}

/** fish: `complete` lines conditioned on the exact command path typed so far. */
export function fishScript(model: CompletionEntry[]): string {
  const lines = [
    "# gjc fish completion; load with: gjc completion fish | source",
    "function __gjc_path",
    "    set -l tokens (commandline -opc)",
    "    set -l path",
    "    for t in $tokens[2..-1]",
    "        string match -q -- '-*' $t; and continue",
    "        set -l candidate (string join ' ' $path $t)",
    "        if contains -- $candidate $__gjc_paths",
    "            set path $path $t",
    "        end",
    "    end",
    "    string join ' ' $path",
    "end",
    `set -g __gjc_paths ${model
      .filter((e) => e.path.length > 0)
      .map((e) => sq(key(e.path)))
      .join(" ")}`,
    "complete -c gjc -f",
  ];
  for (const e of model) {
    const cond = `-n "test (__gjc_path) = ${sq(key(e.path)).replace(/"/g, '\\"')}"`;
    for (const c of e.children) lines.push(`complete -c gjc ${cond} -a ${sq(c.name)} -d ${sq(c.description)}`);
    for (const o of e.options) {
      const values = o.values ? ` -x -a ${sq(o.values.join(" "))}` : o.takesValue ? " -r" : "";
      lines.push(`complete -c gjc ${cond} -l ${o.name}${values} -d ${sq(o.description)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
