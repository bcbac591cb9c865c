// Package profile reads the owner's portfolio from content/profile.yaml: who they are, what they
// offer, what they work with, the development-tools page and their featured projects. The file is
// data, not code — whoever installs devhub makes the portfolio theirs by editing it (docs/profile.md).
//
// Load refuses a file with an unknown key, a missing required field, an unknown icon or an
// avatar that is not an image, with one error naming the file, the line and the field, so that
// `devhub content check` and `devhub serve` stop on it instead of showing a broken page.
package profile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FileName is the profile's name inside the content directory.
const FileName = "profile.yaml"

// Languages are the languages a text may have; en is required everywhere, the development-tools
// page's own texts (intro, group titles, philosophy) are required in all six.
var Languages = []string{"en", "uk", "ru", "es", "fr", "pt"}

// Text is one text in several languages (language code → text).
type Text map[string]string

// Link is one of the owner's links (GitHub, LinkedIn, a blog…).
type Link struct {
	Label string `yaml:"label" json:"label"`
	URL   string `yaml:"url" json:"url"`
	Icon  string `yaml:"icon" json:"icon"`
}

// Item is a service, technology or tool: a name, an optional description and an icon.
type Item struct {
	Name        Text   `yaml:"name" json:"name"`
	Description Text   `yaml:"description,omitempty" json:"description,omitempty"`
	Icon        string `yaml:"icon" json:"icon"`
}

// Group is one group of the development-tools page.
type Group struct {
	Title Text   `yaml:"title" json:"title"`
	Tools []Item `yaml:"tools" json:"tools"`
}

// DevTools is the development-tools page (/tools).
type DevTools struct {
	Intro      Text    `yaml:"intro" json:"intro"`
	Groups     []Group `yaml:"groups" json:"groups"`
	Philosophy Text    `yaml:"philosophy" json:"philosophy"`
}

// Project is a featured project on the home page.
type Project struct {
	Name        string   `yaml:"name" json:"name"`
	Description Text     `yaml:"description" json:"description"`
	Link        string   `yaml:"link" json:"link"`
	Tags        []string `yaml:"tags" json:"tags"`
}

// Profile is the whole file.
type Profile struct {
	Name         Text      `yaml:"name" json:"name"`
	Headline     Text      `yaml:"headline" json:"headline"`
	Bio          Text      `yaml:"bio" json:"bio"`
	Avatar       string    `yaml:"avatar" json:"avatar"`
	Location     Text      `yaml:"location" json:"location"`
	Links        []Link    `yaml:"links" json:"links"`
	Services     []Item    `yaml:"services" json:"services"`
	Technologies []Item    `yaml:"technologies" json:"technologies"`
	Tools        []Item    `yaml:"tools" json:"tools"`
	DevTools     DevTools  `yaml:"devtools" json:"devtools"`
	Projects     []Project `yaml:"projects" json:"projects"`
	Site         Site      `yaml:"site,omitempty" json:"site"`
}

// Error is a problem in the file: where it is and what is wrong.
type Error struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Field, e.Msg)
}

// Loaded is a checked profile and its avatar.
type Loaded struct {
	Profile Profile
	// Avatar is the avatar image's bytes and content type.
	Avatar     []byte
	AvatarType string
}

// IconExists tells whether an icon name is in the icon set the binary serves.
type IconExists func(name string) bool

// Load reads and checks dir/profile.yaml. A missing file is fs.ErrNotExist (the portfolio then
// shows no owner); everything else wrong is an *Error.
func Load(dir string, icons IconExists) (*Loaded, error) {
	path := filepath.Join(dir, FileName)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, dir, icons)
}

// yaml.v3 reports "line N: …" and, for an unknown key, "field K not found in type …".
var (
	lineRE     = regexp.MustCompile(`line (\d+): (.*)`)
	unknownKey = regexp.MustCompile(`field (\S+) not found`)
)

// Parse checks the file's bytes; name is used in errors, dir is where the avatar is.
func Parse(name string, data []byte, dir string, icons IconExists) (*Loaded, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlError(name, err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var p Profile
	if err := dec.Decode(&p); err != nil {
		return nil, yamlError(name, err)
	}
	c := checker{file: name, root: &root, icons: icons}
	c.profile(&p)
	if c.err != nil {
		return nil, c.err
	}
	l := &Loaded{Profile: p}
	if p.Avatar != "" {
		if err := l.loadAvatar(dir, p.Avatar); err != nil {
			return nil, &Error{File: name, Line: c.line("avatar"), Field: "avatar", Msg: err.Error()}
		}
	}
	return l, nil
}

func yamlError(file string, err error) error {
	var te *yaml.TypeError
	msg := err.Error()
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		var line int
		fmt.Sscanf(m[1], "%d", &line)
		if f := unknownKey.FindStringSubmatch(m[2]); f != nil {
			return &Error{File: file, Line: line, Field: f[1], Msg: "unknown key"}
		}
		return &Error{File: file, Line: line, Msg: m[2]}
	}
	return &Error{File: file, Line: 1, Msg: strings.TrimPrefix(msg, "yaml: ")}
}

// maxAvatar bounds the avatar file (it is held in memory and served from there).
const maxAvatar = 2 << 20

func (l *Loaded) loadAvatar(dir, name string) error {
	if filepath.IsAbs(name) || strings.Contains(filepath.ToSlash(name), "..") {
		return errors.New("must be a file inside the content directory")
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("file %q does not exist", name)
	}
	if err != nil {
		return err
	}
	if len(data) > maxAvatar {
		return fmt.Errorf("file %q is larger than 2 MiB", name)
	}
	ct := http.DetectContentType(data)
	if strings.HasSuffix(strings.ToLower(name), ".svg") && bytes.Contains(data[:min(len(data), 1024)], []byte("<svg")) {
		ct = "image/svg+xml"
	}
	switch ct {
	case "image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml":
	default:
		return fmt.Errorf("file %q is not an image (PNG, JPEG, GIF, WebP or SVG)", name)
	}
	l.Avatar, l.AvatarType = data, ct
	return nil
}
