// Package redact keeps passwords out of everything schemagen prints.
//
// Database URLs carry passwords (postgres://bob:s3cret@host/db), and so do the
// error messages of drivers that echo their connection string. Every message
// that may hold a URL goes through URL or Text before it is shown.
package redact

import (
	"net/url"
	"regexp"
	"strings"
)

// Mask replaces a password, the way net/url's Redacted does.
const Mask = "xxxxx"

// URL returns raw with its password replaced by Mask. A string that does not
// parse as a URL is still cleaned of anything that looks like user:password@.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return Text(raw)
	}
	if _, ok := u.User.Password(); !ok {
		return raw
	}
	return u.Redacted()
}

// urlUserinfo matches scheme://user:password@ inside free text. An unescaped
// '/' or '@' cannot be part of a URL's password.
var urlUserinfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@]*):([^\s/@]*)@`)

// dsnUserinfo matches user:password@ of go-sql-driver DSNs
// (user:password@tcp(host:3306)/db, user:password@/db), where a password may
// hold any character but white space and '@'.
var dsnUserinfo = regexp.MustCompile(`(^|[\s'"=(,])([^\s:/@'"()]+):([^\s@]*)@([A-Za-z0-9]*\(|/)`)

// keyValue matches password=... in libpq key/value connection strings.
var keyValue = regexp.MustCompile(`(?i)\b(password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s]+)`)

// Text returns s with every password it can recognise replaced by Mask:
// those of URLs and DSNs (user:password@host) and libpq's password=... .
func Text(s string) string {
	s = urlUserinfo.ReplaceAllStringFunc(s, func(m string) string {
		sub := urlUserinfo.FindStringSubmatch(m)
		if sub[2] == "" {
			return m
		}
		return sub[1] + ":" + Mask + "@"
	})
	s = dsnUserinfo.ReplaceAllString(s, "${1}${2}:"+Mask+"@${4}")
	return keyValue.ReplaceAllString(s, "${1}"+Mask)
}

// Secrets returns s with every occurrence of each non-empty secret replaced by
// Mask, after Text. Use it when the password is known, for example to clean a
// driver's error about a URL the user gave.
func Secrets(s string, secrets ...string) string {
	s = Text(s)
	for _, secret := range secrets {
		if secret != "" {
			s = strings.ReplaceAll(s, secret, Mask)
		}
	}
	return s
}

// Password returns the password in a URL, or "" if it has none or does not
// parse; useful with Secrets.
func Password(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return ""
	}
	p, _ := u.User.Password()
	return p
}
