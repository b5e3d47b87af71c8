package redact

import (
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://bob:s3cret@db.example:5432/x?sslmode=disable": "postgres://bob:xxxxx@db.example:5432/x?sslmode=disable",
		"mysql://root@127.0.0.1:4000/":                            "mysql://root@127.0.0.1:4000/",
		"mysql://root:@127.0.0.1:4000/":                           "mysql://root:xxxxx@127.0.0.1:4000/",
		"postgres://127.0.0.1/x":                                  "postgres://127.0.0.1/x",
		"postgres://bob:p%40ss@h/x":                               "postgres://bob:xxxxx@h/x",
		// Does not parse (bad port), still no password.
		"postgres://bob:s3cret@h:port/x": "postgres://bob:xxxxx@h:port/x",
	} {
		if got := URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		`dial postgres://bob:s3cret@h:5432/x: refused`:     `dial postgres://bob:xxxxx@h:5432/x: refused`,
		`open bob:s3cret@tcp(127.0.0.1:3306)/db failed`:    `open bob:xxxxx@tcp(127.0.0.1:3306)/db failed`,
		`host=h user=bob password=s3cret dbname=x`:         `host=h user=bob password=xxxxx dbname=x`,
		`host=h password='s3 cret' dbname=x`:               `host=h password=xxxxx dbname=x`,
		`connect to 127.0.0.1:5432 failed: user@example`:   `connect to 127.0.0.1:5432 failed: user@example`,
		`mysql://root@127.0.0.1:4000/ and pg://a:b@c/d ok`: `mysql://root@127.0.0.1:4000/ and pg://a:xxxxx@c/d ok`,
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSecrets(t *testing.T) {
	got := Secrets(`failed to connect to user=bob database=x: password "s3cret" rejected`, "s3cret", "")
	if strings.Contains(got, "s3cret") || !strings.Contains(got, Mask) {
		t.Errorf("Secrets left the password: %q", got)
	}
	if p := Password("postgres://bob:s3cret@h/x"); p != "s3cret" {
		t.Errorf("Password = %q", p)
	}
	if p := Password("postgres://bob@h/x"); p != "" {
		t.Errorf("Password = %q", p)
	}
}
