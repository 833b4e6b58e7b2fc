/**
 * A minimal reader of one Server-Sent Events stream for the bench's clients: it splits the text
 * into events at blank lines (an event may arrive split across chunks, or several in one) and
 * hands each one's type and data to `onEvent`. Comments (`: heartbeat`) and the opening
 * `retry:`/`id:` block have no data and are skipped.
 */
export function sseReader(onEvent) {
  let rest = "";
  return (chunk) => {
    rest += chunk;
    let end = rest.indexOf("\n\n");
    while (end !== -1) {
      const block = rest.slice(0, end);
      rest = rest.slice(end + 2);
      let type = "message";
      let data;
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) type = line.slice(7);
        else if (line.startsWith("data: "))
          data = data === undefined ? line.slice(6) : `${data}\n${line.slice(6)}`;
      }
      if (data !== undefined) onEvent(type, data);
      end = rest.indexOf("\n\n");
    }
  };
}
