// Lint fixture (decision 0080): breaks "process.env is read only in libs/config"; tools/lint/test asserts the error.
export const key = process.env['TAVILY_API_KEY'];
export const { env } = process;
