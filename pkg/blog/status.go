package blog

import (
	"time"

	"github.com/devhub/devhub/pkg/store"
)

// An article's status. A draft is seen by admins only; a scheduled article
// is seen by admins only until its PublishAt, then by everyone; a published
// article by everyone. Whether a scheduled article is public is decided by
// the clock on every read, so it appears at its time without a restart.
const (
	StatusDraft     = "draft"
	StatusScheduled = "scheduled"
	StatusPublished = "published"
)

// effectiveStatus is the status readers are told at now: a scheduled
// article whose time has come is published.
func effectiveStatus(status string, publishAt *time.Time, now time.Time) string {
	if status == StatusScheduled && publishAt != nil && !now.Before(*publishAt) {
		return StatusPublished
	}
	return status
}

// public reports whether an article with status and publishAt is shown to
// everyone at now.
func public(status string, publishAt *time.Time, now time.Time) bool {
	return effectiveStatus(status, publishAt, now) == StatusPublished
}

// Public reports whether a is shown to everyone at the service's clock.
func (s *Service) Public(a *Article) bool { return public(a.Status, a.PublishAt, s.now()) }

// atRead is a as a reader sees it now: a scheduled article whose time has
// come says it is published.
func (s *Service) atRead(a *Article) *Article {
	a.Status = effectiveStatus(a.Status, a.PublishAt, s.now())
	return a
}

// GetFor returns the article with id as a reader sees it: one that is not
// public is store.ErrNotFound unless drafts (an admin) — its existence
// must not leak.
func (s *Service) GetFor(id uint64, drafts bool) (*Article, error) {
	a, err := s.Get(id)
	if err != nil {
		return nil, err
	}
	if !drafts && !s.Public(a) {
		return nil, store.ErrNotFound
	}
	return a, nil
}

// GetBySlugFor is GetFor by slug.
func (s *Service) GetBySlugFor(slug string, drafts bool) (*Article, error) {
	a, err := s.GetBySlug(slug)
	if err != nil {
		return nil, err
	}
	if !drafts && !s.Public(a) {
		return nil, store.ErrNotFound
	}
	return a, nil
}

// applyStatus validates in's status and publication time and settles the
// article's dates: a scheduled article is dated its publication time, and
// one that becomes published from a draft or a schedule is dated now (the
// article's date is the day readers first saw it).
func applyStatus(v *store.Validator, next, prev *Article, now time.Time) {
	switch next.Status {
	case StatusDraft, StatusPublished:
		next.PublishAt = nil
	case StatusScheduled:
		if next.PublishAt == nil || next.PublishAt.IsZero() {
			v.Add("publishAt", "required", "publishAt is required for a scheduled article")
			return
		}
		t := next.PublishAt.UTC()
		next.PublishAt = &t
		next.CreatedAt = t
		return
	default:
		v.Add("status", "invalid", "status must be draft, scheduled or published")
		return
	}
	if next.Status == StatusPublished && prev != nil && !public(prev.Status, prev.PublishAt, now) {
		next.CreatedAt = now
	}
}
