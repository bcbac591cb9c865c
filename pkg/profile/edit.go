package profile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// PrevFileName is where Save keeps the version it replaced, beside the file.
const PrevFileName = FileName + ".prev"

// Merge writes p into the YAML document old, editing its node tree rather than marshalling p
// afresh: every key keeps its place, its comments and its style (a flow map stays a flow map, a
// quoted string stays quoted); keys p no longer has are dropped, new ones are added at the end of
// their map, list items are matched by position. An empty old gives a fresh document.
func Merge(old []byte, p Profile) ([]byte, error) {
	var fresh yaml.Node
	if err := fresh.Encode(&p); err != nil {
		return nil, err
	}
	pruneEmpty(&fresh)
	var doc yaml.Node
	if len(bytes.TrimSpace(old)) > 0 {
		if err := yaml.Unmarshal(old, &doc); err != nil {
			return nil, err
		}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{&fresh}}
	} else {
		mergeNode(doc.Content[0], &fresh)
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// mergeNode makes old say what fresh says, keeping old's comments and styles wherever old and
// fresh have the same shape.
func mergeNode(old, fresh *yaml.Node) {
	if old.Kind != fresh.Kind {
		head, line, foot := old.HeadComment, old.LineComment, old.FootComment
		*old = *fresh
		old.HeadComment, old.LineComment, old.FootComment = head, line, foot
		return
	}
	switch old.Kind {
	case yaml.MappingNode:
		var content []*yaml.Node
		for i := 0; i+1 < len(fresh.Content); i += 2 {
			key, val := fresh.Content[i], fresh.Content[i+1]
			if j := mapIndex(old, key.Value); j >= 0 {
				mergeNode(old.Content[j+1], val)
				content = append(content, old.Content[j], old.Content[j+1])
			} else {
				content = append(content, key, val)
			}
		}
		// Keys keep the old order; new keys follow in fresh's order.
		ordered := make([]*yaml.Node, 0, len(content))
		for i := 0; i+1 < len(old.Content); i += 2 {
			if j := indexIn(content, old.Content[i].Value); j >= 0 {
				ordered = append(ordered, content[j], content[j+1])
			}
		}
		for i := 0; i+1 < len(content); i += 2 {
			if mapIndex(old, content[i].Value) < 0 {
				ordered = append(ordered, content[i], content[i+1])
			}
		}
		old.Content = ordered
	case yaml.SequenceNode:
		n := min(len(old.Content), len(fresh.Content))
		for i := 0; i < n; i++ {
			mergeNode(old.Content[i], fresh.Content[i])
		}
		old.Content = append(old.Content[:n], fresh.Content[n:]...)
		if len(old.Content) == 0 {
			old.Style = yaml.FlowStyle // an empty list stays readable: []
		}
	default:
		if old.Value != fresh.Value || old.Tag != fresh.Tag {
			style := old.Style
			old.Value, old.Tag = fresh.Value, fresh.Tag
			// A block scalar keeps its style only while the text still has lines to keep.
			if (style == yaml.LiteralStyle || style == yaml.FoldedStyle) && !bytes.ContainsRune([]byte(fresh.Value), '\n') {
				style = fresh.Style
			}
			old.Style = style
		}
	}
}

// pruneEmpty drops the keys whose value is an empty map or null: a text in no language, which
// the file leaves out (an optional location), rather than writing "location: {}".
func pruneEmpty(n *yaml.Node) {
	switch n.Kind {
	case yaml.MappingNode:
		kept := n.Content[:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			v := n.Content[i+1]
			if (v.Kind == yaml.MappingNode && len(v.Content) == 0) || (v.Kind == yaml.ScalarNode && v.Tag == "!!null") {
				continue
			}
			pruneEmpty(v)
			kept = append(kept, n.Content[i], v)
		}
		n.Content = kept
	case yaml.SequenceNode:
		for _, c := range n.Content {
			pruneEmpty(c)
		}
	}
}

func mapIndex(m *yaml.Node, key string) int {
	return indexIn(m.Content, key)
}

func indexIn(content []*yaml.Node, key string) int {
	for i := 0; i+1 < len(content); i += 2 {
		if content[i].Value == key {
			return i
		}
	}
	return -1
}

// Save checks p and writes it as dir/profile.yaml: merged into the current file (Merge), the
// result checked exactly as Load checks it (an unknown icon, a missing English text, … is an
// *Error and nothing is written), the file it replaces kept as PrevFileName, and the new one
// put in place atomically (a temporary file, synced, renamed over it). It returns the profile
// as now loaded.
func Save(dir string, p Profile, icons IconExists) (*Loaded, error) {
	path := filepath.Join(dir, FileName)
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	data, err := Merge(old, p)
	if err != nil {
		return nil, err
	}
	l, err := Parse(FileName, data, dir, icons)
	if err != nil {
		return nil, err
	}
	if old != nil {
		if err := writeAtomic(filepath.Join(dir, PrevFileName), old); err != nil {
			return nil, fmt.Errorf("keep the previous profile: %w", err)
		}
	}
	if err := writeAtomic(path, data); err != nil {
		return nil, err
	}
	return l, nil
}

func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // gone after the rename; cleans up after a failure
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
