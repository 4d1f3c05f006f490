export * from './recording-scope';
export * from './recording-store';
export * from './recording-repository';
