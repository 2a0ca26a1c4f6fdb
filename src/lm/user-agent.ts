/** The User-Agent both adapters send, so server logs can tell reclamo's traffic apart. */
export const USER_AGENT = `reclamo (node ${process.versions.node})`;
