// `node --import ./record-loads.mjs ...`: appends the URL of every module the process loads through the
// ES module loader (our dist/ files and the packages they import) to the file named by
// LANEBOARD_RECORD_LOADS, one per line. The hooks run on the loader's thread, so they write the file
// themselves rather than send messages that could be lost when the process exits.
import { register } from 'node:module';

const file = process.env.LANEBOARD_RECORD_LOADS;
if (file) register('./record-loads-hooks.mjs', { parentURL: import.meta.url, data: { file } });
