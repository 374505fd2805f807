#!/usr/bin/env python3
"""Doxygen's INPUT_FILTER for orthocomm's headers (docs/Doxyfile).

Our headers use plain `//` comments (Google style), which Doxygen ignores.
This filter prints a header with those comments turned into Doxygen's,
one output line per input line (line numbers stay those of the source):

  - the file's opening comment block becomes the file's description
    (`///` lines, `\\file` at the end of its first line); so does a block
    that stands alone (a blank line after it) at namespace scope, outside
    namespaces internal: the conventions of the declarations that follow
    (ortho/collectives.h's "Meaning by structure"); not separator lines
    (`// ---- typed buffers ----`);
  - a `//` block directly above a declaration (the next line is code: not
    blank, not a comment), at namespace or class scope at any indentation,
    becomes `///` (with what Doxygen would take for markup escaped: `#if`,
    `<name>`, `_` and `*` that would open emphasis);
  - `#include "....inc"` (a textual include whose text depends on macros
    defined around it, which Doxygen does not follow) becomes that file's
    declarations and their documentation, joined into the one line.

Left as they are: comments inside function bodies (and other braces that
are not a namespace, class, struct, union or enum), trailing comments
(`}  // namespace x`), blocks above a preprocessor line, a namespace, an
access specifier, a closing brace or static_assert, and NOLINT and IWYU
pragma lines within a block.

  usage: doxygen_filter.py HEADER
"""
import os
import re
import sys

# Heads of the braces whose inside is a scope of declarations: group 1 the
# keyword, group 2 a namespace's name.
SCOPE = re.compile(r'^(?:\[\[.*?\]\]\s*)?(?:inline\s+)?'
                   r'(namespace|class|struct|union|enum)\b\s*([\w:]*)|'
                   r'^extern\s+"C"')
# A separator line ("// ---- raw buffers ----"), no documentation.
SEPARATOR = re.compile(r'^\s*//\s*-{3,}')
# An access specifier at the start of a class member's head.
ACCESS = re.compile(r'^(?:(?:public|protected|private)\s*:\s*)+')
# Lines whose comment block above is not a declaration's documentation.
NOT_A_DECLARATION = re.compile(
    r'^(?:#|namespace\b|inline\s+namespace\b|}|static_assert\b|'
    r'(?:public|protected|private)\s*:)')
# A textual include of one of our .inc files (its text depends on macros
# the includer defines around it).
INCLUDE_INC = re.compile(r'^\s*#\s*include\s+"([^"]+\.inc)"')
# The repository root, which include paths are relative to.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Outside `code spans` and "quoted text", what Doxygen would read as markup
# in our plain text: '#' before a word (a link: "#if"), '<' before a word
# (an HTML tag: "classic::<name>_init"), and '_' or '*' where Markdown
# would open emphasis ("reduce_scatter(_block)", "<name>_init").
MARKUP = re.compile(r"(?<![\w\\])#(?=[A-Za-z_])|(?<!\\)<(?=[A-Za-z/!])|"
                    r"(?<![^\s'<>{(\[,:;])[_*](?=[\w\[])")
# Code spans and quoted text: left as written.
LITERAL_TEXT = re.compile(r'(`[^`]*`|"[^"]*")')
# Comment lines kept as they are even inside a converted block.
KEEP = re.compile(r'^//\s*(?:NOLINT|IWYU\s+pragma)')
# What code looks like for brace counting: string and character literals
# and comments removed.
LITERALS = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])\'|/\*.*?\*/')


def strip_template_prefix(head):
    """head without leading `template <...>` parameter lists."""
    while head.startswith('template'):
        start = head.find('<')
        if start < 0:
            return head
        depth = 0
        for i in range(start, len(head)):
            depth += {'<': 1, '>': -1}.get(head[i], 0)
            if depth == 0:
                head = head[i + 1:].lstrip()
                break
        else:
            return head
    return head


def scope_kind(head):
    """What the brace after `head` (the code before it) opens."""
    scope = SCOPE.match(strip_template_prefix(
        ACCESS.sub('', ' '.join(head.split()))))
    if not scope:
        return 'body'
    if scope[1] in (None, 'namespace'):
        name = scope[2] or ''
        return 'internal' if 'internal' in name.split('::') else 'namespace'
    return 'class'


def doc_line(line, suffix=''):
    """A `//` comment line as a `///` one, `suffix` added at its end."""
    indent = len(line) - len(line.lstrip())
    text = line[indent:]
    if KEEP.match(text):
        return line
    parts = LITERAL_TEXT.split(text.rstrip('\n'))
    parts[::2] = [MARKUP.sub(lambda m: '\\' + m[0], p) for p in parts[::2]]
    text = ''.join(parts)
    return line[:indent] + '/' + text + suffix + \
        ('\n' if line.endswith('\n') else '')


def inlined(path):
    """A textual .inc as one line (Doxygen does not follow #include): its
    code joined, each of its doc comments as one /** */, nothing else."""
    with open(os.path.join(ROOT, path), encoding='utf-8') as f:
        lines = filter_lines(f.readlines(), file_doc=False)
    parts, doc = [], []
    for line in lines + ['']:
        text = line.strip()
        if text.startswith('///'):
            doc.append(text[3:].strip())
            continue
        if doc:
            parts.append('/** ' + ' '.join(doc).replace('*/', '* /') + ' */')
            doc = []
        if text and not text.startswith('//'):
            parts.append(text)
    return ' '.join(parts)


def filter_lines(lines, file_doc=True):
    """lines with their comments as Doxygen's; file_doc: the file's opening
    blocks become its description (not for an inlined .inc)."""
    out = list(lines)
    n = len(lines)
    is_comment = [l.lstrip().startswith('//') for l in lines]

    # The opening block: the file's description.
    i = 0
    while file_doc and i < n and is_comment[i] and lines[i].startswith('//'):
        out[i] = doc_line(lines[i], ' \\file' if i == 0 else '')
        i += 1

    # One entry per open brace: 'namespace', 'internal' (a namespace
    # internal), 'class' (class, struct, union, enum) or 'body' (any other).
    stack = []
    head = ''           # code since the last ';', '{' or '}'
    continued = False   # inside a preprocessor line continued with '\'
    while i < n:
        line = lines[i]
        text = line.strip()
        if continued or text.startswith('#'):
            continued = text.endswith('\\')
            include = INCLUDE_INC.match(line)
            if include and os.path.isfile(os.path.join(ROOT, include[1])):
                out[i] = inlined(include[1]) + '\n'
            i += 1
            continue
        if is_comment[i]:
            start = i
            while i < n and is_comment[i]:
                i += 1
            after = lines[i].strip() if i < n else ''
            in_scope = 'body' not in stack
            if (file_doc and after == '' and set(stack) <= {'namespace'} and
                    not any(SEPARATOR.match(lines[k])
                            for k in range(start, i))):
                # A block that stands alone at namespace scope (the
                # conventions of what follows): more of the file's
                # description.
                for k in range(start, i):
                    out[k] = doc_line(lines[k], ' \\file' if k == start
                                      else '')
            elif in_scope and after and not NOT_A_DECLARATION.match(after):
                for k in range(start, i):
                    out[k] = doc_line(lines[k])
            continue
        code = LITERALS.sub('""', line).split('//', 1)[0]
        for ch in code:
            if ch == '{':
                stack.append(scope_kind(head))
                head = ''
            elif ch == '}':
                if stack:
                    stack.pop()
                head = ''
            elif ch == ';':
                head = ''
            else:
                head += ch
        head += ' '
        i += 1
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    with open(sys.argv[1], encoding='utf-8', newline='') as f:
        lines = f.readlines()
    sys.stdout.reconfigure(newline='')
    sys.stdout.write(''.join(filter_lines(lines)))


if __name__ == '__main__':
    main()
