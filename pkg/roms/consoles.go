// Package roms is the games library: the built-in consoles table (which
// emulator core runs which console), the scan of roms/<console>/ into the
// store, and an in-memory index that answers the games page's list and
// search. It knows nothing about HTTP: pkg/server and pkg/cli call the same
// Service.
package roms

import (
	"path"
	"regexp"
	"slices"
	"strings"
)

// Console is one entry of the built-in consoles table. Core is the libretro
// core name the emulator page loads (the EmulatorJS build of that core is
// served under /cores/<core>/).
type Console struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	ShortName string `json:"shortName"`
	Core      string `json:"core"`
	// Extensions are the ROM file extensions accepted in the console's
	// folder, lower case with the dot.
	Extensions []string `json:"extensions"`
	// Aliases are other folder names that mean this console (roms/genesis/
	// is the Mega Drive).
	Aliases []string `json:"aliases,omitempty"`
	// Known is false for a folder whose name is not in the table: it is
	// still listed, run with the NES core (the spec's default).
	Known bool `json:"-"`
}

// DefaultConsoleID is the console whose core runs any folder the table does
// not know ("Default: nes" in the spec's console → core mapping).
const DefaultConsoleID = "nes"

// consoleTable follows the spec's console-name → core mapping. Order is the
// order of the console selector: the consoles this project ships ROMs for
// first, NES at the top so it is the one selected on a fresh install.
var consoleTable = []Console{
	{ID: "nes", Name: "Nintendo Entertainment System", ShortName: "NES", Core: "fceumm", Extensions: []string{".nes", ".fds", ".unf", ".unif"}, Aliases: []string{"famicom", "fc"}},
	{ID: "snes", Name: "Super Nintendo", ShortName: "SNES", Core: "snes9x", Extensions: []string{".smc", ".sfc", ".swc", ".fig", ".bs"}, Aliases: []string{"sfc", "superfamicom", "supernintendo"}},
	{ID: "gb", Name: "Game Boy", ShortName: "GB", Core: "gambatte", Extensions: []string{".gb"}, Aliases: []string{"gameboy"}},
	{ID: "gbc", Name: "Game Boy Color", ShortName: "GBC", Core: "gambatte", Extensions: []string{".gbc", ".gb"}, Aliases: []string{"gameboycolor"}},
	{ID: "gba", Name: "Game Boy Advance", ShortName: "GBA", Core: "mgba", Extensions: []string{".gba"}, Aliases: []string{"gameboyadvance"}},
	{ID: "megadrive", Name: "Sega Mega Drive / Genesis", ShortName: "MD", Core: "genesis_plus_gx", Extensions: []string{".md", ".gen", ".smd", ".bin"}, Aliases: []string{"sega", "genesis", "segamd", "md"}},
	{ID: "sms", Name: "Sega Master System", ShortName: "SMS", Core: "genesis_plus_gx", Extensions: []string{".sms"}, Aliases: []string{"mastersystem", "segams"}},
	{ID: "gg", Name: "Sega Game Gear", ShortName: "GG", Core: "genesis_plus_gx", Extensions: []string{".gg"}, Aliases: []string{"gamegear", "segagg"}},
	{ID: "segacd", Name: "Sega CD / Mega-CD", ShortName: "SCD", Core: "genesis_plus_gx", Extensions: []string{".cue", ".chd", ".iso"}, Aliases: []string{"megacd", "scd"}},
	{ID: "32x", Name: "Sega 32X", ShortName: "32X", Core: "picodrive", Extensions: []string{".32x", ".bin"}, Aliases: []string{"sega32x"}},
	{ID: "saturn", Name: "Sega Saturn", ShortName: "SAT", Core: "yabause", Extensions: []string{".cue", ".chd", ".iso"}, Aliases: []string{"segasaturn"}},
	{ID: "psx", Name: "Sony PlayStation", ShortName: "PS1", Core: "pcsx_rearmed", Extensions: []string{".cue", ".bin", ".chd", ".pbp", ".iso"}, Aliases: []string{"ps1", "playstation"}},
	{ID: "n64", Name: "Nintendo 64", ShortName: "N64", Core: "mupen64plus_next", Extensions: []string{".n64", ".z64", ".v64"}},
	{ID: "psp", Name: "Sony PSP", ShortName: "PSP", Core: "ppsspp", Extensions: []string{".iso", ".cso", ".pbp"}},
	{ID: "nds", Name: "Nintendo DS", ShortName: "NDS", Core: "melonds", Extensions: []string{".nds"}},
	{ID: "3do", Name: "3DO", ShortName: "3DO", Core: "opera", Extensions: []string{".iso", ".cue", ".chd"}},
	{ID: "lynx", Name: "Atari Lynx", ShortName: "LYNX", Core: "handy", Extensions: []string{".lnx"}},
	{ID: "jaguar", Name: "Atari Jaguar", ShortName: "JAG", Core: "virtualjaguar", Extensions: []string{".j64", ".jag"}},
	{ID: "atari2600", Name: "Atari 2600", ShortName: "2600", Core: "stella2014", Extensions: []string{".a26", ".bin"}, Aliases: []string{"atari", "2600"}},
	{ID: "atari5200", Name: "Atari 5200", ShortName: "5200", Core: "a5200", Extensions: []string{".a52", ".bin"}, Aliases: []string{"5200"}},
	{ID: "atari7800", Name: "Atari 7800", ShortName: "7800", Core: "prosystem", Extensions: []string{".a78", ".bin"}, Aliases: []string{"7800"}},
	{ID: "ngp", Name: "Neo Geo Pocket", ShortName: "NGP", Core: "mednafen_ngp", Extensions: []string{".ngp", ".ngc"}, Aliases: []string{"ngpc", "neogeopocket"}},
	{ID: "pce", Name: "PC Engine / TurboGrafx-16", ShortName: "PCE", Core: "mednafen_pce", Extensions: []string{".pce", ".cue", ".chd"}, Aliases: []string{"tg16", "turbografx", "pcengine"}},
	{ID: "pcfx", Name: "PC-FX", ShortName: "PCFX", Core: "mednafen_pcfx", Extensions: []string{".cue", ".chd", ".ccd"}},
	{ID: "ws", Name: "WonderSwan", ShortName: "WS", Core: "mednafen_wswan", Extensions: []string{".ws", ".wsc"}, Aliases: []string{"wonderswan", "wsc"}},
	{ID: "vb", Name: "Virtual Boy", ShortName: "VB", Core: "beetle_vb", Extensions: []string{".vb", ".vboy"}, Aliases: []string{"virtualboy"}},
	{ID: "coleco", Name: "ColecoVision", ShortName: "COL", Core: "gearcoleco", Extensions: []string{".col", ".rom"}, Aliases: []string{"colecovision"}},
	{ID: "amiga", Name: "Commodore Amiga", ShortName: "AMIGA", Core: "puae", Extensions: []string{".adf", ".hdf", ".lha", ".ipf"}},
	{ID: "c64", Name: "Commodore 64", ShortName: "C64", Core: "vice_x64sc", Extensions: []string{".d64", ".t64", ".prg", ".crt", ".tap"}},
	{ID: "c128", Name: "Commodore 128", ShortName: "C128", Core: "vice_x128", Extensions: []string{".d64", ".d71", ".d81", ".prg"}},
	{ID: "pet", Name: "Commodore PET", ShortName: "PET", Core: "vice_xpet", Extensions: []string{".prg", ".d64"}},
	{ID: "plus4", Name: "Commodore Plus/4", ShortName: "PLUS4", Core: "vice_xplus4", Extensions: []string{".prg", ".d64", ".tap"}},
	{ID: "vic20", Name: "Commodore VIC-20", ShortName: "VIC20", Core: "vice_xvic", Extensions: []string{".prg", ".d64", ".crt"}},
	{ID: "dos", Name: "DOS", ShortName: "DOS", Core: "dosbox_pure", Extensions: []string{".zip", ".exe", ".com", ".bat"}},
	{ID: "arcade", Name: "Arcade (FinalBurn Neo)", ShortName: "ARC", Core: "fbneo", Extensions: []string{".zip", ".7z"}, Aliases: []string{"fbneo"}},
	{ID: "mame", Name: "Arcade (MAME 2003-Plus)", ShortName: "MAME", Core: "mame2003_plus", Extensions: []string{".zip"}, Aliases: []string{"mame2003"}},
}

var (
	consoleByID    = map[string]int{}
	consoleByAlias = map[string]int{}
	// folderNameRE is what a console folder name may look like; anything
	// else (spaces, dots, upper case) is reported and skipped by a scan, so
	// console ids are always safe in URLs.
	folderNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)
)

func init() {
	for i := range consoleTable {
		consoleTable[i].Known = true
		consoleByID[consoleTable[i].ID] = i
		for _, a := range consoleTable[i].Aliases {
			consoleByAlias[a] = i
		}
	}
}

// KnownConsoles returns a copy of the built-in table.
func KnownConsoles() []Console {
	out := make([]Console, len(consoleTable))
	for i, c := range consoleTable {
		out[i] = c
		out[i].Extensions = append([]string(nil), c.Extensions...)
		out[i].Aliases = append([]string(nil), c.Aliases...)
	}
	return out
}

// LookupConsole resolves an id or an alias (case-insensitive) to the
// table's console.
func LookupConsole(name string) (Console, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if i, ok := consoleByID[n]; ok {
		return consoleTable[i], true
	}
	if i, ok := consoleByAlias[n]; ok {
		return consoleTable[i], true
	}
	return Console{}, false
}

// CoreFor maps a console name (id or alias) to its emulator core; anything
// unknown runs on the NES core, as the spec says.
func CoreFor(name string) string {
	if c, ok := LookupConsole(name); ok {
		return c.Core
	}
	return consoleTable[consoleByID[DefaultConsoleID]].Core
}

// consoleForFolder is the console a folder of roms/ stands for. A known
// id or alias gives the table's console (roms/genesis/ and roms/megadrive/
// both hold Mega Drive games); an unknown but well-formed name gives a
// console of that name run by the NES core.
func consoleForFolder(folder string) (Console, bool) {
	if !folderNameRE.MatchString(folder) {
		return Console{}, false
	}
	if c, ok := LookupConsole(folder); ok {
		return c, true
	}
	def := consoleTable[consoleByID[DefaultConsoleID]]
	return Console{
		ID:         folder,
		Name:       folder,
		ShortName:  strings.ToUpper(folder),
		Core:       def.Core,
		Extensions: def.Extensions,
	}, true
}

// accepts reports whether a file name has one of the console's extensions.
func (c Console) accepts(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	for _, e := range c.Extensions {
		if e == ext {
			return true
		}
	}
	return false
}

// imageExtensions are the cover image formats, in order of preference when
// several exist for one ROM.
var imageExtensions = []string{".png", ".jpg", ".jpeg", ".webp"}

// specCores maps the hub spec's emulator `core` query names (§7, the
// EmulatorJS system names: nes, snes, segaMD, gba, gb, …) to the console
// they stand for, so emulator.html?core=nes runs the core installed for the
// NES. The installed libretro core names (fceumm, snes9x, …) stay valid too.
var specCores = map[string]string{
	"nes": "nes", "snes": "snes", "gb": "gb", "gbc": "gbc", "gba": "gba",
	"segaMD": "megadrive", "segaMS": "sms", "segaGG": "gg", "segaCD": "segacd", "sega32x": "32x", "segaSaturn": "saturn",
	"psx": "psx", "n64": "n64", "psp": "psp", "nds": "nds", "3do": "3do", "lynx": "lynx", "jaguar": "jaguar",
	"atari2600": "atari2600", "atari5200": "atari5200", "atari7800": "atari7800",
	"ngp": "ngp", "pce": "pce", "pcfx": "pcfx", "ws": "ws", "vb": "vb", "coleco": "coleco",
	"amiga": "amiga", "c64": "c64", "c128": "c128", "pet": "pet", "plus4": "plus4", "vic20": "vic20",
	"dos": "dos", "arcade": "arcade", "mame": "mame",
}

// SpecCoreNames returns, sorted, the spec's core names that the libretro
// core runs: for "genesis_plus_gx" segaCD, segaGG, segaMD and segaMS. The
// cores index hands them out so the player can map a spec name to an
// installed core.
func SpecCoreNames(core string) []string {
	var out []string
	for name, id := range specCores {
		if consoleTable[consoleByID[id]].Core == core {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
