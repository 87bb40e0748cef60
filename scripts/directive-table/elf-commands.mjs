// Reads the directive tables out of a compiled nginx module (an x86-64 ELF shared object such as Debian's
// /usr/lib/nginx/modules/ngx_nchan_module.so), for the modules whose C sources Debian no longer serves. A dynamic
// module exports `ngx_modules` (its ngx_module_t pointers) and `ngx_module_names`; each ngx_module_t points at its
// ngx_command_t array, which is exactly what nginx's configuration reader walks, so the names, the NGX_*_CONF context
// bits and the argument bits read here are the shipped binary's own. Pointers in a position-independent object are
// relocations: R_X86_64_RELATIVE (an address inside the object) or R_X86_64_64 against a symbol (a handler from
// nginx itself such as ngx_conf_set_flag_slot, by name).
import { readFileSync } from 'node:fs';

const SHT_RELA = 4;
const SHT_DYNSYM = 11;
const SHT_SYMTAB = 2;
const SHT_NOBITS = 8;
const SHF_ALLOC = 2;
const R_X86_64_64 = 1;
const R_X86_64_GLOB_DAT = 6;
const R_X86_64_RELATIVE = 8;

/** nginx's module type words (NGX_CORE_MODULE is 0x45524F43, "CORE" read little-endian, and so on). */
export const MODULE_TYPES = {
  0x45524f43: 'NGX_CORE_MODULE',
  0x464e4f43: 'NGX_CONF_MODULE',
  0x544e5645: 'NGX_EVENT_MODULE',
  0x50545448: 'NGX_HTTP_MODULE',
  0x4d525453: 'NGX_STREAM_MODULE',
  0x4c49414d: 'NGX_MAIL_MODULE',
  0x504d5452: 'NGX_RTMP_MODULE',
};

/** Sizes of the structures read (64-bit): ngx_module_t up to `type`, ngx_command_t, ngx_conf_enum_t/bitmask_t. */
const MODULE_COMMANDS_AT = 64;
const MODULE_TYPE_AT = 72;
const COMMAND_SIZE = 56;
const VALUE_ENTRY_SIZE = 24;
/** Bounds, so a damaged file cannot loop: no nginx module has this many directives or enum words. */
const MAX_COMMANDS = 2000;
const MAX_VALUES = 200;

function parseElf(buffer) {
  if (buffer.readUInt32BE(0) !== 0x7f454c46 || buffer[4] !== 2 || buffer[5] !== 1) throw new Error('not a little-endian 64-bit ELF file');
  const shoff = Number(buffer.readBigUInt64LE(0x28));
  const shentsize = buffer.readUInt16LE(0x3a);
  const shnum = buffer.readUInt16LE(0x3c);
  const sections = [];
  for (let i = 0; i < shnum; i++) {
    const at = shoff + i * shentsize;
    sections.push({
      type: buffer.readUInt32LE(at + 4),
      flags: Number(buffer.readBigUInt64LE(at + 8)),
      addr: Number(buffer.readBigUInt64LE(at + 16)),
      offset: Number(buffer.readBigUInt64LE(at + 24)),
      size: Number(buffer.readBigUInt64LE(at + 32)),
      link: buffer.readUInt32LE(at + 40),
      entsize: Number(buffer.readBigUInt64LE(at + 56)),
    });
  }
  return sections;
}

function cString(buffer, offset) {
  const end = buffer.indexOf(0, offset);
  return buffer.toString('latin1', offset, end < 0 ? buffer.length : end);
}

/** An ELF shared object as addressable memory: read integers, pointers (through relocations) and strings by address. */
export function openElf(file) {
  const buffer = readFileSync(file);
  const sections = parseElf(buffer);
  const symbols = [];
  for (const s of sections) {
    if (s.type !== SHT_DYNSYM && s.type !== SHT_SYMTAB) continue;
    const strings = sections[s.link];
    for (let at = s.offset; at + 24 <= s.offset + s.size; at += 24) {
      symbols.push({
        name: cString(buffer, strings.offset + buffer.readUInt32LE(at)),
        shndx: buffer.readUInt16LE(at + 6),
        value: Number(buffer.readBigUInt64LE(at + 8)),
        dynamic: s.type === SHT_DYNSYM,
      });
    }
  }
  const dynamicSymbols = symbols.filter((s) => s.dynamic);
  const relocations = new Map();
  for (const s of sections) {
    if (s.type !== SHT_RELA) continue;
    const table = sections[s.link];
    for (let at = s.offset; at + 24 <= s.offset + s.size; at += 24) {
      const where = Number(buffer.readBigUInt64LE(at));
      const info = buffer.readBigUInt64LE(at + 8);
      const type = Number(info & 0xffffffffn);
      const index = Number(info >> 32n);
      const addend = Number(buffer.readBigInt64LE(at + 16));
      const symbol = table?.type === SHT_DYNSYM && index > 0 ? dynamicSymbols[index] : undefined;
      if (type === R_X86_64_RELATIVE) relocations.set(where, { addr: addend });
      else if (type === R_X86_64_64 || type === R_X86_64_GLOB_DAT) {
        relocations.set(where, symbol && symbol.shndx !== 0 ? { addr: symbol.value + addend, symbol: symbol.name } : { symbol: symbol?.name });
      }
    }
  }
  const fileOffset = (addr) => {
    const s = sections.find((x) => (x.flags & SHF_ALLOC) !== 0 && x.type !== SHT_NOBITS && addr >= x.addr && addr < x.addr + x.size);
    if (!s) throw new Error(`address 0x${addr.toString(16)} is in no section with contents`);
    return s.offset + (addr - s.addr);
  };
  const word = (addr) => Number(buffer.readBigUInt64LE(fileOffset(addr)));
  /** A pointer-sized field: { addr } inside the object, { symbol } for an outside one, undefined for NULL. */
  const pointer = (addr) => {
    const reloc = relocations.get(addr);
    if (reloc) return reloc;
    const raw = word(addr);
    return raw === 0 ? undefined : { addr: raw };
  };
  const symbolAddress = (name) => symbols.find((s) => s.name === name && s.shndx !== 0)?.value;
  const string = (addr, length) => buffer.toString('latin1', fileOffset(addr), fileOffset(addr) + length);
  return { word, pointer, symbolAddress, string, cString: (addr) => cString(buffer, fileOffset(addr)) };
}

/** The words of an ngx_conf_enum_t / ngx_conf_bitmask_t table (both are { ngx_str_t name; ngx_uint_t value; }). */
function valueWords(elf, addr) {
  const words = [];
  for (let i = 0; i < MAX_VALUES; i++) {
    const at = addr + i * VALUE_ENTRY_SIZE;
    const length = elf.word(at);
    if (length === 0) return words;
    words.push(elf.string(elf.pointer(at + 8).addr, length));
  }
  throw new Error(`value table at 0x${addr.toString(16)} has no end`);
}

/**
 * Every module of a dynamic module object: [{ name, type, commands: [{ name, type (the bits), set, values?, multiple? }] }].
 * `set` is the handler's symbol name when it is nginx's (ngx_conf_set_*_slot), else undefined (the module's own).
 */
export function readModuleObject(file) {
  const elf = openElf(file);
  const list = elf.symbolAddress('ngx_modules');
  const names = elf.symbolAddress('ngx_module_names');
  if (list === undefined || names === undefined) throw new Error(`${file}: no ngx_modules / ngx_module_names (not an nginx dynamic module)`);
  const modules = [];
  for (let i = 0; ; i++) {
    const moduleRef = elf.pointer(list + 8 * i);
    if (!moduleRef) break;
    const module = moduleRef.addr;
    const type = MODULE_TYPES[elf.word(module + MODULE_TYPE_AT)];
    if (!type) throw new Error(`${file}: module ${i} has an unknown type word`);
    const commands = [];
    const table = elf.pointer(module + MODULE_COMMANDS_AT)?.addr;
    for (let j = 0; table !== undefined; j++) {
      if (j >= MAX_COMMANDS) throw new Error(`${file}: command table without an end`);
      const at = table + j * COMMAND_SIZE;
      const length = elf.word(at);
      if (length === 0) break;
      const command = { name: elf.string(elf.pointer(at + 8).addr, length), type: elf.word(at + 16), set: elf.pointer(at + 24)?.symbol };
      const post = elf.pointer(at + 48);
      if (post?.addr !== undefined && (command.set === 'ngx_conf_set_enum_slot' || command.set === 'ngx_conf_set_bitmask_slot')) {
        command.values = valueWords(elf, post.addr);
        if (command.set === 'ngx_conf_set_bitmask_slot') command.multiple = true;
      }
      commands.push(command);
    }
    modules.push({ name: elf.cString(elf.pointer(names + 8 * i).addr), type, commands });
  }
  return modules;
}
