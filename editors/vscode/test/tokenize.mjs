// Tokenizes HLO text with the extension's grammar, as VS Code does:
// vscode-textmate driven by the Oniguruma regex engine compiled to wasm.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import textmate from 'vscode-textmate';
import oniguruma from 'vscode-oniguruma';

const require = createRequire(import.meta.url);
const grammarPath = new URL('../syntaxes/hlo.tmLanguage.json', import.meta.url);

async function loadGrammar() {
  const wasm = await readFile(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== 'source.hlo') return null;
      const text = await readFile(grammarPath, 'utf8');
      return textmate.parseRawGrammar(text, grammarPath.pathname);
    },
  });
  return registry.loadGrammar('source.hlo');
}

const grammar = await loadGrammar();

// One array of tokens per line: {text, scopes}, where scopes leaves out the
// root scope "source.hlo" and tokens that are only whitespace are dropped.
export function tokenize(text) {
  let state = textmate.INITIAL;
  return text.split('\n').map((line) => {
    const result = grammar.tokenizeLine(line, state);
    state = result.ruleStack;
    return result.tokens
      .map((token) => ({
        text: line.slice(token.startIndex, token.endIndex),
        scopes: token.scopes.slice(1),
      }))
      .filter((token) => token.text.trim() !== '');
  });
}

// The tokens of a single line.
export function tokenizeLine(line) {
  return tokenize(line)[0];
}
