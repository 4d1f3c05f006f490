/** Progress on a TTY rewrites one line; elsewhere (CI, pipes) each update is its own line, less often. */
export class Output {
  private live = false;
  private lastPlain = 0;

  constructor(private readonly stream: NodeJS.WriteStream = process.stdout) {}

  line(text: string): void {
    this.done();
    this.stream.write(`${text}\n`);
  }

  progress(text: string): void {
    if (this.stream.isTTY) {
      this.stream.write(`\r\x1b[2K${text}`);
      this.live = true;
    } else if (Date.now() - this.lastPlain > 1000) {
      this.lastPlain = Date.now();
      this.stream.write(`${text}\n`);
    }
  }

  /** Progress where every step matters (a file ingested): rewritten on a TTY, one line each elsewhere. */
  step(text: string): void {
    if (this.stream.isTTY) this.progress(text);
    else this.stream.write(`${text}\n`);
  }

  done(): void {
    if (this.live) this.stream.write('\n');
    this.live = false;
  }
}
