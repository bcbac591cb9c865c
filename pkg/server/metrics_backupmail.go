package server

import (
	"github.com/prometheus/client_golang/prometheus"
)

// backupMailCollectors report the scheduled backups (failures since start,
// the last success) and the mail queue (messages waiting), when each is on.
func backupMailCollectors(s *Server) []prometheus.Collector {
	var out []prometheus.Collector
	if b := s.svc.Backups; b != nil {
		out = append(out,
			prometheus.NewCounterFunc(prometheus.CounterOpts{
				Name: "devhub_backup_failures_total", Help: "Scheduled backups that failed since start.",
			}, func() float64 { return float64(b.Failures()) }),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{
				Name: "devhub_backup_last_success_timestamp_seconds", Help: "When the last scheduled backup that succeeded started (0: none yet).",
			}, func() float64 {
				if t := b.LastSuccess(); !t.IsZero() {
					return float64(t.Unix())
				}
				return 0
			}))
	}
	if q := s.svc.Mail; q != nil {
		out = append(out, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "devhub_mail_queue_pending", Help: "E-mails waiting in the queue for the mail server.",
		}, func() float64 { return float64(q.State().Pending) }))
	}
	return out
}
