package blog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	"go.yaml.in/yaml/v3"

	"github.com/devhub/devhub/pkg/store"
)

// The content/ format: one Markdown file per article, named <slug>.md,
// opening with YAML front matter between two "---" lines:
//
//	---
//	name: Running devhub
//	excerpt: One binary, one data directory.
//	category: Guides
//	image: /images/run.png      (optional)
//	date: 2025-01-31T10:00:00Z  (optional; the article's creation time)
//	updated: 2025-02-03T08:00:00Z (optional; the last edit, needs date)
//	slug: running-devhub        (optional; defaults to the file name)
//	lang: uk                    (optional; the article's language, default en)
//	translationKey: running     (optional; shared by the translations of one text)
//	---
//	# Markdown body …
//
// Export writes updated only for an article edited after its creation, so
// that export → import gives back every stored field but the id.

// FrontMatter is the YAML header of a content file.
type FrontMatter struct {
	Name     string `yaml:"name"`
	Excerpt  string `yaml:"excerpt"`
	Category string `yaml:"category"`
	Image    string `yaml:"image,omitempty"`
	Date     string `yaml:"date,omitempty"`
	Updated  string `yaml:"updated,omitempty"`
	Slug     string `yaml:"slug,omitempty"`
	Lang     string `yaml:"lang,omitempty"`
	// TranslationKey is shared by the files that are translations of each other.
	TranslationKey string `yaml:"translationKey,omitempty"`
}

// frontMatterKeys are the keys a header may hold, in the order a writer
// fills them (and error messages list them).
var frontMatterKeys = []string{"name", "excerpt", "category", "image", "date", "updated", "slug", "lang", "translationKey"}

func (fm *FrontMatter) field(key string) *string {
	switch key {
	case "name":
		return &fm.Name
	case "excerpt":
		return &fm.Excerpt
	case "category":
		return &fm.Category
	case "image":
		return &fm.Image
	case "date":
		return &fm.Date
	case "updated":
		return &fm.Updated
	case "slug":
		return &fm.Slug
	case "lang":
		return &fm.Lang
	case "translationKey":
		return &fm.TranslationKey
	}
	return nil
}

// Stamps are the optional times of a content file; zero when not given.
type Stamps struct {
	Created time.Time // front matter "date"
	Updated time.Time // front matter "updated"
}

// ImportResult counts what an import did.
type ImportResult struct {
	Created   int `json:"created"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
}

// FileError names the content file (and field) an import stopped at.
type FileError struct {
	File  string
	Field string
	Msg   string
}

func (e *FileError) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s: field %q: %s", e.File, e.Field, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

var errNoDir = errors.New("content directory does not exist")

type parsedFile struct {
	file   string
	in     Input
	stamps Stamps
}

// yamlLineRe finds the line numbers in yaml's messages, which count from
// the first line after the opening "---".
var yamlLineRe = regexp.MustCompile(`\bline (\d+)\b`)

// fileLines rewrites yaml's header line numbers as line numbers of the file.
func fileLines(msg string) string {
	msg = strings.TrimPrefix(msg, "yaml: ")
	return yamlLineRe.ReplaceAllStringFunc(msg, func(m string) string {
		n, _ := strconv.Atoi(yamlLineRe.FindStringSubmatch(m)[1])
		return "line " + strconv.Itoa(n+1)
	})
}

var headerKeyRe = regexp.MustCompile(`^([a-zA-Z]+)\s*:`)

// syntaxErrorKey names the key on the header line a YAML syntax error
// points at, when that line starts with one.
func syntaxErrorKey(header, msg string) string {
	m := yamlLineRe.FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	n, _ := strconv.Atoi(m[1])
	lines := strings.Split(header, "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	if k := headerKeyRe.FindStringSubmatch(lines[n-1]); k != nil && slices.Contains(frontMatterKeys, k[1]) {
		return k[1]
	}
	return ""
}

// decodeFrontMatter reads the header into fm. It walks the YAML tree itself
// rather than decoding into the struct, so that every mistake names its key
// and file line: an unknown or repeated key, or a list or map where a text
// belongs.
func decodeFrontMatter(header string, fm *FrontMatter) (field, msg string) {
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(header), &root); err != nil {
		msg := "bad front matter: " + fileLines(err.Error())
		if strings.Contains(msg, "mapping values are not allowed") {
			msg += ` (quote a value that holds ": ")`
		}
		return syntaxErrorKey(header, err.Error()), msg
	}
	if root.Kind == 0 || len(root.Content) == 0 { // an empty header
		return "", ""
	}
	doc := root.Content[0]
	if doc.Kind == yaml.ScalarNode && doc.Tag == "!!null" {
		return "", ""
	}
	if doc.Kind != yaml.MappingNode {
		return "", fmt.Sprintf("bad front matter: line %d: expected \"key: value\" lines (%s)", doc.Line+1, strings.Join(frontMatterKeys, ", "))
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		k, v := doc.Content[i], doc.Content[i+1]
		key, line := k.Value, k.Line+1
		dst := fm.field(key)
		if dst == nil || k.Kind != yaml.ScalarNode {
			return key, fmt.Sprintf("line %d: unknown field; the fields are %s", line, strings.Join(frontMatterKeys, ", "))
		}
		if prev, dup := seen[key]; dup {
			return key, fmt.Sprintf("line %d: given twice (first on line %d)", line, prev)
		}
		seen[key] = line
		if v.Kind == yaml.AliasNode && v.Alias != nil {
			v = v.Alias
		}
		if v.Kind != yaml.ScalarNode {
			return key, fmt.Sprintf("line %d: must be a single text value, not a list or a map (quote it if it holds a colon or starts with [ or {)", line)
		}
		if v.Tag == "!!null" {
			continue
		}
		*dst = v.Value
	}
	return "", ""
}

// ParseContentFile reads one content file. name is used in error messages.
func ParseContentFile(name string, raw []byte) (Input, Stamps, error) {
	fail := func(field, format string, a ...any) (Input, Stamps, error) {
		return Input{}, Stamps{}, &FileError{File: name, Field: field, Msg: fmt.Sprintf(format, a...)}
	}
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	text := strings.ReplaceAll(string(raw), "\r\n", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return fail("", "must start with YAML front matter between two --- lines")
	}
	rest := text[len("---\n"):]
	var header, body string
	switch i := strings.Index(rest, "\n---\n"); {
	case strings.HasPrefix(rest, "---\n"):
		header, body = "", rest[len("---\n"):]
	case i >= 0:
		header, body = rest[:i+1], rest[i+len("\n---\n"):]
	case strings.HasSuffix(rest, "\n---"):
		header, body = rest[:len(rest)-len("---")], ""
	default:
		return fail("", "front matter is not closed by a --- line")
	}
	var fm FrontMatter
	if field, msg := decodeFrontMatter(header, &fm); msg != "" {
		return fail(field, "%s", msg)
	}
	in := Input{Slug: fm.Slug, Name: fm.Name, Excerpt: fm.Excerpt, Category: fm.Category, ImageURL: fm.Image, Content: body,
		Lang: fm.Lang, TranslationKey: fm.TranslationKey}
	if in.Slug == "" {
		in.Slug = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	}
	in.normalize()
	if err := in.validate(); err != nil {
		var verr *store.ValidationError
		if errors.As(err, &verr) {
			field := firstField(verr)
			msg := verr.Fields[field].Message
			switch field {
			case "image_url":
				field = "image"
				msg = strings.Replace(msg, "image_url", "image", 1)
			case "content":
				msg = "the Markdown body after the front matter " + strings.TrimPrefix(msg, "content ")
			case "slug":
				if fm.Slug == "" {
					msg = "the file name does not make a valid slug; set slug in the front matter"
				}
			}
			return fail(field, "%s", msg)
		}
		return Input{}, Stamps{}, err
	}
	var st Stamps
	for _, d := range []struct {
		field, val string
		dst        *time.Time
	}{{"date", fm.Date, &st.Created}, {"updated", fm.Updated, &st.Updated}} {
		if d.val == "" {
			continue
		}
		t, err := parseDate(d.val)
		if err != nil {
			return fail(d.field, "%q is not a date (use 2006-01-02 or RFC 3339)", d.val)
		}
		*d.dst = t
	}
	switch {
	case !st.Updated.IsZero() && st.Created.IsZero():
		return fail("updated", "needs date (the creation time) as well")
	case !st.Updated.IsZero() && st.Updated.Before(st.Created):
		return fail("updated", "is before date")
	}
	return in, st, nil
}

func firstField(v *store.ValidationError) string {
	keys := make([]string, 0, len(v.Fields))
	for k := range v.Fields {
		keys = append(keys, k)
	}
	// Report in the order a writer fills the header.
	order := map[string]int{"name": 0, "excerpt": 1, "category": 2, "image_url": 3, "slug": 4, "lang": 5, "translationKey": 6, "content": 7}
	sort.Slice(keys, func(i, j int) bool { return order[keys[i]] < order[keys[j]] })
	return keys[0]
}

func parseDate(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, errors.New("bad date")
}

// Import upserts every *.md file of dir by slug, all or nothing: every file
// is read and checked first, and one bbolt transaction writes them all. An
// article whose fields already equal the file's is left untouched, so a
// second import changes nothing.
func (s *Service) Import(ctx context.Context, dir string) (ImportResult, error) {
	var res ImportResult
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return res, fmt.Errorf("%w: %s", errNoDir, dir)
	}
	if err != nil {
		return res, err
	}
	var files []parsedFile
	bySlug := map[string]string{}
	for _, e := range entries {
		if e.IsDir() || !strings.EqualFold(filepath.Ext(e.Name()), ".md") {
			continue
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
		path := filepath.Join(dir, e.Name())
		raw, err := os.ReadFile(path)
		if err != nil {
			return res, &FileError{File: path, Msg: err.Error()}
		}
		in, stamps, err := ParseContentFile(path, raw)
		if err != nil {
			return res, err
		}
		if other, dup := bySlug[in.Slug]; dup {
			return res, &FileError{File: path, Field: "slug", Msg: fmt.Sprintf("%q is also the slug of %s", in.Slug, other)}
		}
		bySlug[in.Slug] = path
		files = append(files, parsedFile{file: path, in: in, stamps: stamps})
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	var changed []*Article
	err = s.st.Update(func(tx *bolt.Tx) error {
		res, changed = ImportResult{}, nil
		arts, slugs := tx.Bucket(bucketArticles), tx.Bucket(bucketSlugs)
		now := s.now()
		for _, f := range files {
			in := f.in
			id := slugs.Get([]byte(in.Slug))
			if id == nil {
				a := &Article{Slug: in.Slug, Name: in.Name, Excerpt: in.Excerpt, Content: in.Content,
					Category: in.Category, ImageURL: in.ImageURL, Lang: in.Lang, TranslationKey: in.TranslationKey,
					CreatedAt: now, UpdatedAt: now}
				if !f.stamps.Created.IsZero() {
					a.CreatedAt, a.UpdatedAt = f.stamps.Created, f.stamps.Created
				}
				if !f.stamps.Updated.IsZero() {
					a.UpdatedAt = f.stamps.Updated
				}
				if err := s.insertTx(tx, a, false); err != nil {
					return fmt.Errorf("%s: %w", f.file, err)
				}
				res.Created++
				changed = append(changed, a)
				continue
			}
			var old Article
			if err := store.GetJSON(arts, id, &old); err != nil {
				return fmt.Errorf("%s: %w", f.file, err)
			}
			old.loaded()
			next := old
			next.Name, next.Excerpt, next.Content, next.Category, next.ImageURL, next.Lang, next.TranslationKey =
				in.Name, in.Excerpt, in.Content, in.Category, in.ImageURL, in.Lang, in.TranslationKey
			if !f.stamps.Created.IsZero() {
				next.CreatedAt = f.stamps.Created
			}
			edited := !sameArticle(&next, &old)
			switch {
			// A file's own "updated" is kept, unless the file was edited by
			// hand and still carries the stamp of the version it came from.
			case !f.stamps.Updated.IsZero() && !(edited && f.stamps.Updated.Equal(old.UpdatedAt)):
				next.UpdatedAt = f.stamps.Updated
			case edited:
				next.UpdatedAt = now
			}
			if sameArticle(&next, &old) {
				res.Unchanged++
				continue
			}
			if err := s.replaceTx(tx, &old, &next); err != nil {
				return fmt.Errorf("%s: %w", f.file, err)
			}
			res.Updated++
			changed = append(changed, &next)
		}
		return nil
	})
	if err != nil {
		return ImportResult{}, err
	}
	for _, a := range changed {
		s.ix.put(a)
	}
	return res, nil
}

// FormatContentFile writes an article in the content/ format. Parsing the
// result gives back the same fields (ParseContentFile).
func FormatContentFile(a *Article) ([]byte, error) {
	fm := FrontMatter{Name: a.Name, Excerpt: a.Excerpt, Category: a.Category, Image: a.ImageURL,
		Date: a.CreatedAt.UTC().Format(time.RFC3339Nano), Slug: a.Slug, Lang: a.Lang, TranslationKey: a.TranslationKey}
	if !a.UpdatedAt.Equal(a.CreatedAt) {
		fm.Updated = a.UpdatedAt.UTC().Format(time.RFC3339Nano)
	}
	var buf bytes.Buffer
	buf.WriteString("---\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(fm); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	buf.WriteString("---\n")
	buf.WriteString(a.Content)
	buf.WriteString("\n")
	return buf.Bytes(), nil
}

// Export writes every article to dir as <slug>.md (creating dir), each file
// atomically. Files of other names in dir are left alone.
func (s *Service) Export(ctx context.Context, dir string) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	var arts []Article
	err := s.st.View(func(tx *bolt.Tx) error {
		return store.ForEachJSON(tx.Bucket(bucketArticles), func(_ []byte, a *Article) error {
			arts = append(arts, *a.loaded())
			return nil
		})
	})
	if err != nil {
		return 0, err
	}
	for i := range arts {
		if err := ctx.Err(); err != nil {
			return i, err
		}
		raw, err := FormatContentFile(&arts[i])
		if err != nil {
			return i, err
		}
		if err := writeFileAtomic(filepath.Join(dir, arts[i].Slug+".md"), raw); err != nil {
			return i, err
		}
	}
	return len(arts), nil
}

func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".export-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
