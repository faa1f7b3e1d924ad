// The page bound of a document PDF, apart from the renderer so that the API process, which only configures the
// rendering threads, does not load pdfkit and its fonts (about 0.3 s of every start and of every test file).

/**
 * Most pages a document may take. The contract's largest documents stay below (a work order with 200 lines and
 * every text and checklist point at its longest takes about 450 pages); the bound keeps a layout fault or a future
 * larger limit from growing a PDF without end.
 */
export const MAX_PAGES = 1000;
