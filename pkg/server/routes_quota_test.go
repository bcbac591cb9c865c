package server

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/quota"
	"github.com/devhub/devhub/pkg/storage/miniotest"
)

func ptr(n int64) *int64 { return &n }

// quotaAnswer is the 413 of an upload over quota.
type quotaAnswer struct {
	Status int `json:"status"`
	Data   struct {
		Quota struct {
			Code  string        `json:"code"`
			Used  quota.Amount  `json:"used"`
			Limit quota.Limit   `json:"limit"`
			Held  *quota.Amount `json:"held"`
		} `json:"quota"`
	} `json:"data"`
}

func TestUploadQuota(t *testing.T) {
	cases := []struct {
		name     string
		defaults quota.Amount    // files.quota_bytes / files.quota_files
		override *quota.Override // the user's own, if any
		before   [][]byte        // uploads that must fit first (one file each)
		upload   [][]byte        // the upload under test (one request)
		token    string
		want     int
		wantUsed quota.Amount // on a 413: what data.quota.used says
	}{
		{name: "within the default", defaults: quota.Amount{Bytes: 1000, Files: 10}, upload: [][]byte{randomBytes(600)}, token: userToken, want: 201},
		{name: "one file over the default bytes", defaults: quota.Amount{Bytes: 1000, Files: 10}, upload: [][]byte{randomBytes(1001)},
			token: userToken, want: 413},
		{name: "over bytes mid-stream after earlier uploads", defaults: quota.Amount{Bytes: 1000},
			before: [][]byte{randomBytes(700)}, upload: [][]byte{randomBytes(200), randomBytes(200)}, token: userToken, want: 413,
			wantUsed: quota.Amount{Bytes: 700, Files: 1}},
		{name: "over the file count", defaults: quota.Amount{Files: 2}, before: [][]byte{randomBytes(10)},
			upload: [][]byte{randomBytes(10), randomBytes(10)}, token: userToken, want: 413, wantUsed: quota.Amount{Bytes: 10, Files: 1}},
		{name: "an override raises the default", defaults: quota.Amount{Bytes: 100}, override: &quota.Override{Bytes: ptr(10000)},
			upload: [][]byte{randomBytes(5000)}, token: userToken, want: 201},
		{name: "an override lifts the limit", defaults: quota.Amount{Bytes: 100}, override: &quota.Override{Bytes: ptr(quota.Unlimited)},
			upload: [][]byte{randomBytes(5000)}, token: userToken, want: 201},
		{name: "an override lowers it", defaults: quota.Amount{Bytes: 100000}, override: &quota.Override{Files: ptr(0)},
			upload: [][]byte{randomBytes(5)}, token: userToken, want: 413},
		{name: "admins are unlimited by default", defaults: quota.Amount{Bytes: 100, Files: 1}, upload: [][]byte{randomBytes(5000), randomBytes(5)},
			token: adminToken, want: 201},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fa := newFilesTestAppWith(t, 1<<20, func(f *config.Files) { f.QuotaBytes, f.QuotaFiles = tc.defaults.Bytes, tc.defaults.Files })
			uid := uint64(2)
			if tc.token == adminToken {
				uid = 1
			}
			if tc.override != nil {
				if err := fa.quota.SetOverride(t.Context(), uid, *tc.override); err != nil {
					t.Fatal(err)
				}
			}
			for _, b := range tc.before {
				fa.upload(t, filePart("before.bin", b))
			}
			var parts []part
			for _, b := range tc.upload {
				parts = append(parts, filePart("f.bin", b))
			}
			resp, body := fa.do(t, uploadRequest("/api/files/upload", tc.token, multipartBody(parts...)))
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.want, body)
			}
			all, _ := fa.svc.List()
			if tc.want != 413 {
				if len(all) != len(tc.before)+len(tc.upload) {
					t.Fatalf("%d files stored", len(all))
				}
				return
			}
			if len(all) != len(tc.before) {
				t.Fatalf("refused upload kept files: %d stored, %d before", len(all), len(tc.before))
			}
			if n := countEntries(t, fa.uploadsDir); n != len(tc.before) {
				t.Fatalf("uploads dir holds %d entries after a refused upload, want %d", n, len(tc.before))
			}
			var ans quotaAnswer
			if err := json.Unmarshal(body, &ans); err != nil {
				t.Fatal(err)
			}
			if ans.Data.Quota.Code != "quota_exceeded" || ans.Data.Quota.Used != tc.wantUsed {
				t.Fatalf("data.quota = %+v, want used %+v", ans.Data.Quota, tc.wantUsed)
			}
		})
	}
}

func TestAuthQuota(t *testing.T) {
	fa := newFilesTestAppWith(t, 1<<20, func(f *config.Files) { f.QuotaBytes, f.QuotaFiles = 5000, 0 })
	fa.upload(t, filePart("a.bin", randomBytes(300)), filePart("b.bin", randomBytes(200)))
	cases := []struct {
		name  string
		token string
		want  int
		body  string
	}{
		{"user: usage and the default limit, unlimited files as null", userToken, 200, `{"used":{"bytes":500,"files":2},"limit":{"bytes":5000,"files":null}}`},
		{"admin: unlimited by default", adminToken, 200, `{"used":{"bytes":0,"files":0},"limit":{"bytes":null,"files":null}}`},
		{"guest", "", 401, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := get("/api/auth/quota")
			if tc.token != "" {
				req = withToken(req, tc.token)
			}
			resp, body := fa.do(t, req)
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			if tc.body != "" && string(body) != tc.body {
				t.Fatalf("body %s, want %s", body, tc.body)
			}
		})
	}
}

var _ = http.StatusOK

// TestQuotaNothingKeptOnEachBackend: an upload over the quota keeps nothing
// in either backend — refused while it streams (the multipart uploads of S3
// aborted) or by the final check, which two parallel uploads that each fit
// alone cannot pass together.
func TestQuotaNothingKeptOnEachBackend(t *testing.T) {
	const MiB = 1 << 20
	forEachBackend(t, func(t *testing.T, newApp func(func(*config.Config)) *filesTestApp) {
		fa := newApp(func(c *config.Config) { c.Files.MaxUploadBytes, c.Files.QuotaBytes = 32*MiB, 10*MiB })
		objects := func() int {
			n := countEntries(t, fa.uploadsDir)
			if fa.s3 != nil {
				fa.backend.List(context.Background(), func(string) error { n++; return nil })
				if m := miniotest.Incomplete(t, *fa.s3); m != 0 {
					t.Fatalf("%d unfinished multipart uploads left", m)
				}
			}
			return n
		}
		// Over by its own size, and over with a second part (a multipart
		// upload of S3 under way when the quota runs out).
		for _, parts := range [][]part{
			{filePart("big.bin", randomBytes(11*MiB))},
			{filePart("a.bin", randomBytes(6*MiB)), filePart("b.bin", randomBytes(6*MiB))},
		} {
			if resp, body := fa.do(t, uploadRequest("/api/files/upload", userToken, multipartBody(parts...))); resp.StatusCode != 413 {
				t.Fatalf("over the quota: %d %s", resp.StatusCode, body)
			}
			if n := objects(); n != 0 {
				t.Fatalf("%d objects kept after a refusal", n)
			}
		}
		// Two at once, 6 MiB each: one fits, the other is refused at the end.
		bodies := [][]byte{multipartBody(filePart("c.bin", randomBytes(6*MiB))), multipartBody(filePart("d.bin", randomBytes(6*MiB)))}
		codes := make([]int, 2)
		var wg sync.WaitGroup
		for i := range bodies {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, _ := fa.do(t, uploadRequest("/api/files/upload", userToken, bodies[i]))
				codes[i] = resp.StatusCode
			}()
		}
		wg.Wait()
		if !(codes[0] == 201 && codes[1] == 413 || codes[0] == 413 && codes[1] == 201) {
			t.Fatalf("parallel uploads: %v, want one 201 and one 413", codes)
		}
		if all, _ := fa.svc.List(); len(all) != 1 {
			t.Fatalf("%d files listed", len(all))
		}
		if n := objects(); n != 1 {
			t.Fatalf("%d objects kept, want 1", n)
		}
	})
}
