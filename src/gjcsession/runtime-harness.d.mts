// The harness is imported only as text (`with { type: "text" }`) and written out for a child.
declare const source: string;
export default source;
