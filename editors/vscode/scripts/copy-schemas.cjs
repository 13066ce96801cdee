// Copies the .hlolint.json schema (docs/hlolint-config.schema.json, the one
// copy in the repository) into the extension before packaging, for the
// jsonValidation contribution of package.json.
const { copyFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
mkdirSync(join(root, 'schemas'), { recursive: true });
copyFileSync(join(root, '..', '..', 'docs', 'hlolint-config.schema.json'),
             join(root, 'schemas', 'hlolint-config.schema.json'));
