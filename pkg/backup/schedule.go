package backup

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robfig/cron/v3"
)

// MinInterval is the shortest schedule accepted: a backup copies every
// file, so one a second would only ever overlap itself.
const MinInterval = time.Minute

// ParseSchedule reads backup.schedule: an interval ("6h", "30m") or a cron
// expression of five fields ("0 3 * * *") or a descriptor ("@daily",
// "@every 12h"). The empty string is no schedule (nil).
func ParseSchedule(s string) (cron.Schedule, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "off" {
		return nil, nil
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d < MinInterval {
			return nil, fmt.Errorf("backup.schedule %q: the interval must be at least %s", s, MinInterval)
		}
		return cron.Every(d), nil
	}
	sched, err := cron.ParseStandard(s)
	if err != nil {
		return nil, fmt.Errorf("backup.schedule %q: neither an interval (6h) nor a cron expression (0 3 * * *): %v", s, err)
	}
	return sched, nil
}

// Scheduler runs a backup at each time of its schedule and remembers how
// the last one went: a failure is logged, counted, handed to OnFailure and
// reported by Health until a later one succeeds.
type Scheduler struct {
	schedule cron.Schedule
	run      func(ctx context.Context) error
	log      *slog.Logger
	// OnFailure is told of each failed scheduled backup (mail to the
	// admins); nil does nothing. Set it before Start.
	OnFailure func(ctx context.Context, at time.Time, err error)

	failures atomic.Uint64
	mu       sync.Mutex
	lastErr  error
	lastAt   time.Time
	lastOK   time.Time
}

// NewScheduler runs run at the times of schedule once started.
func NewScheduler(schedule cron.Schedule, run func(ctx context.Context) error, log *slog.Logger) *Scheduler {
	if log == nil {
		log = slog.Default()
	}
	return &Scheduler{schedule: schedule, run: run, log: log}
}

// Start runs the schedule until ctx ends.
func (s *Scheduler) Start(ctx context.Context) {
	go func() {
		for {
			next := s.schedule.Next(time.Now())
			t := time.NewTimer(time.Until(next))
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			s.RunOnce(ctx)
		}
	}()
}

// RunOnce takes one scheduled backup now and records how it went.
func (s *Scheduler) RunOnce(ctx context.Context) {
	start := time.Now()
	err := safeRun(ctx, s.run)
	s.mu.Lock()
	s.lastAt, s.lastErr = start, err
	if err == nil {
		s.lastOK = start
	}
	s.mu.Unlock()
	if err == nil {
		s.log.Info("scheduled backup written", slog.Duration("took", time.Since(start)))
		return
	}
	s.failures.Add(1)
	s.log.Error("scheduled backup failed", slog.Any("err", err))
	if s.OnFailure != nil {
		s.OnFailure(context.WithoutCancel(ctx), start, err)
	}
}

// safeRun turns a panic in a backup into its failure: the server goes on.
func safeRun(ctx context.Context, run func(context.Context) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return run(ctx)
}

// Failures is how many scheduled backups failed since start.
func (s *Scheduler) Failures() uint64 {
	if s == nil {
		return 0
	}
	return s.failures.Load()
}

// LastSuccess is when the last scheduled backup that succeeded started
// (zero when none has yet).
func (s *Scheduler) LastSuccess() time.Time {
	if s == nil {
		return time.Time{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastOK
}

// Health is nil unless the last scheduled backup failed; then it says when,
// without paths or secrets (the readiness check shows it). A nil scheduler
// (no schedule) is healthy.
func (s *Scheduler) Health() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lastErr == nil {
		return nil
	}
	return fmt.Errorf("the last scheduled backup failed at %s", s.lastAt.UTC().Format(time.RFC3339))
}
