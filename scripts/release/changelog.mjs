// CHANGELOG.md in Keep a Changelog's shape: "## [Unreleased]", then "## [x.y.z] - YYYY-MM-DD" sections, newest
// first, and link definitions at the end. Line-based: no regular expression spans more than one line.
const HEADING = /^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?\s*$/;
const LINK = /^\[([^\]]+)\]: (\S+)\s*$/;

/** The sections by heading line: { name, date, start, end } with [start, end) the body's line indexes. */
export function sections(text) {
  const lines = text.split('\n');
  const found = [];
  for (let index = 0; index < lines.length; index += 1) {
    const match = HEADING.exec(lines[index]);
    if (!match) continue;
    if (found.length > 0) found[found.length - 1].end = index;
    found.push({ name: match[1], date: match[2], heading: index, start: index + 1, end: lines.length });
  }
  const last = found[found.length - 1];
  if (last) {
    // The link definitions at the end belong to no section.
    while (last.end > last.start && (lines[last.end - 1].trim() === '' || LINK.test(lines[last.end - 1]))) last.end -= 1;
  }
  return { lines, sections: found };
}

/** The newest released version (the first section that is not Unreleased), or undefined. */
export function latestRelease(text) {
  return sections(text).sections.find((section) => section.name !== 'Unreleased');
}

/** The release notes of `version`: its section's body, trimmed. Throws when the version has no dated section. */
export function releaseNotes(text, version) {
  const { lines, sections: all } = sections(text);
  const section = all.find((entry) => entry.name === version);
  if (!section) throw new Error(`CHANGELOG.md has no "## [${version}] - YYYY-MM-DD" section`);
  if (!section.date) throw new Error(`CHANGELOG.md's section for ${version} has no date ("## [${version}] - YYYY-MM-DD")`);
  const body = lines.slice(section.start, section.end).join('\n').trim();
  if (body === '') throw new Error(`CHANGELOG.md's section for ${version} is empty`);
  return `# nginx-keepalive ${version} (${section.date})\n\n${body}\n`;
}

/**
 * The changelog with the Unreleased section's entries moved under "## [version] - date" and an empty Unreleased
 * section above it; the comparison links at the end follow. Throws when Unreleased is missing or empty, or the
 * version already has a section.
 */
export function releaseUnreleased(text, version, date, repositoryUrl) {
  const { lines, sections: all } = sections(text);
  const unreleased = all.find((entry) => entry.name === 'Unreleased');
  if (!unreleased) throw new Error('CHANGELOG.md has no "## [Unreleased]" section');
  if (all.some((entry) => entry.name === version)) throw new Error(`CHANGELOG.md already has a section for ${version}`);
  if (lines.slice(unreleased.start, unreleased.end).join('').trim() === '') {
    throw new Error('CHANGELOG.md\'s Unreleased section is empty: say what changed in it first');
  }
  const previous = all.find((entry) => entry.name !== 'Unreleased')?.name;
  const out = [...lines];
  out.splice(unreleased.heading, 1, '## [Unreleased]', '', `## [${version}] - ${date}`);
  const links = out.map((line) => LINK.exec(line));
  const unreleasedLink = links.findIndex((match) => match?.[1] === 'Unreleased');
  const compare = `${repositoryUrl}/compare/v${version}...HEAD`;
  const tag = previous ? `${repositoryUrl}/compare/v${previous}...v${version}` : `${repositoryUrl}/releases/tag/v${version}`;
  if (unreleasedLink === -1) {
    while (out.length > 0 && out[out.length - 1] === '') out.pop();
    out.push('', `[Unreleased]: ${compare}`, `[${version}]: ${tag}`, '');
  } else {
    out.splice(unreleasedLink, 1, `[Unreleased]: ${compare}`, `[${version}]: ${tag}`);
  }
  return out.join('\n');
}
