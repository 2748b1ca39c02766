// The pages' type check (packages/server/pages/tsconfig.json) through TypeScript's own API, with
// the generated API types (dist/pages/openapi.d.ts) given in memory: one check after another
// parses the pages, Leaflet's types and the DOM's once (a child `tsc -p` per check parsed them
// all again, about 4 s of CPU each), and only the generated file changes between checks.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const CONFIG = fileURLToPath(new URL('../../pages/tsconfig.json', import.meta.url));
const TYPES = fileURLToPath(new URL('../../dist/pages/openapi.d.ts', import.meta.url));

export interface PagesTypeCheck {
  /**
   * The compiler's errors, as `tsc` prints them (`file(line,col): error TSn: message`), with these
   * generated types; `only`: the page files (paths under pages/) checked, every one when absent.
   */
  errors(types: string, only?: readonly string[]): string;
}

export function pagesTypeCheck(): PagesTypeCheck {
  const config = ts.getParsedCommandLineOfConfigFile(
    CONFIG,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  )!;
  const host = ts.createCompilerHost(config.options);
  const parsed = new Map<string, ts.SourceFile>();
  const getSourceFile = host.getSourceFile.bind(host);
  let types = '';
  // The generated file is there for the check whether or not a build wrote it.
  host.fileExists = (file) => file === TYPES || ts.sys.fileExists(file);
  host.readFile = (file) => (file === TYPES ? types : ts.sys.readFile(file));
  host.getSourceFile = (file, language, onError) => {
    if (file === TYPES) return ts.createSourceFile(file, types, language);
    let source = parsed.get(file);
    if (!source) {
      source = getSourceFile(file, language, onError);
      if (source) parsed.set(file, source);
    }
    return source;
  };
  let program: ts.Program | undefined;
  const format: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (file) => file,
    getCurrentDirectory: () => fileURLToPath(new URL('../../../../', import.meta.url)),
    getNewLine: () => '\n',
  };
  return {
    errors(generated, only) {
      types = generated;
      program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host, oldProgram: program });
      const pages = fileURLToPath(new URL('../../pages/', import.meta.url));
      const diagnostics = only
        ? only.flatMap((file) => {
            const source = program!.getSourceFile(`${pages}${file}`);
            if (!source) throw new Error(`${file} is not one of the pages' files`);
            return [...program!.getSyntacticDiagnostics(source), ...program!.getSemanticDiagnostics(source)];
          })
        : ts.getPreEmitDiagnostics(program);
      return ts.formatDiagnostics(diagnostics, format);
    },
  };
}
