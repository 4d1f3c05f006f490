// Lint fixture (decision 0080): libs/config is where process.env is read; tools/lint/test asserts no error here.
export const level = process.env['LOG_LEVEL'];
