export interface RenderOptions {
  /**
   * Append an "Evidence" section quoting every cited excerpt with its source number (default true), so a
   * printed report can be checked sentence by sentence without the JSON.
   */
  evidenceAppendix?: boolean;
}
