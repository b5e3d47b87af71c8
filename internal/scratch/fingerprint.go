package scratch

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/all"
)

// Fingerprint hashes everything an Atlas diff of the schema could look at:
// tables, columns with their types, nullability, defaults and attributes,
// indexes, primary and foreign keys, CHECKs. Two states with one fingerprint
// diff as equal; states that differ only in what a diff ignores may still get
// different fingerprints, which costs a diff, never a wrong answer. It is
// much cheaper than storing the state.
func Fingerprint(s *schema.Schema) string {
	h := sha256.New()
	writeCanonical(h, s)
	return hex.EncodeToString(h.Sum(nil))
}

// writeCanonical writes what Fingerprint hashes.
func writeCanonical(h io.Writer, s *schema.Schema) {
	tables := slices.Clone(s.Tables)
	slices.SortFunc(tables, func(a, b *schema.Table) int { return strings.Compare(a.Name, b.Name) })
	for _, t := range tables {
		fmt.Fprintf(h, "table %q\n", t.Name)
		for _, c := range t.Columns {
			fmt.Fprintf(h, " column %q\n", c.Name)
			canon(h, reflect.ValueOf(c.Type), 0)
			canon(h, reflect.ValueOf(c.Default), 0)
			attrs(h, c.Attrs)
		}
		if t.PrimaryKey != nil {
			index(h, "primary", t.PrimaryKey)
		}
		idx := slices.Clone(t.Indexes)
		slices.SortFunc(idx, func(a, b *schema.Index) int { return strings.Compare(a.Name, b.Name) })
		for _, i := range idx {
			index(h, "index", i)
		}
		fks := slices.Clone(t.ForeignKeys)
		slices.SortFunc(fks, func(a, b *schema.ForeignKey) int { return strings.Compare(a.Symbol, b.Symbol) })
		for _, fk := range fks {
			fmt.Fprintf(h, " fk %q %q %q %q", fk.Symbol, fk.OnUpdate, fk.OnDelete, tableName(fk.RefTable))
			for _, c := range fk.Columns {
				fmt.Fprintf(h, " %q", c.Name)
			}
			h.Write([]byte(" ->"))
			for _, c := range fk.RefColumns {
				fmt.Fprintf(h, " %q", c.Name)
			}
			h.Write([]byte("\n"))
		}
		attrs(h, t.Attrs)
	}
}

func tableName(t *schema.Table) string {
	if t == nil {
		return ""
	}
	return t.Name
}

func index(h io.Writer, kind string, i *schema.Index) {
	fmt.Fprintf(h, " %s %q %v\n", kind, i.Name, i.Unique)
	for _, p := range i.Parts {
		name := ""
		if p.C != nil {
			name = p.C.Name
		}
		fmt.Fprintf(h, "  part %q %v ", name, p.Desc)
		canon(h, reflect.ValueOf(p.X), 0)
		attrs(h, p.Attrs)
	}
	attrs(h, i.Attrs)
}

// attrs hashes attributes in a stable order, leaving out those a dialect
// says are volatile: they identify an object in one database only or change
// with the data.
func attrs(h io.Writer, as []schema.Attr) {
	var parts []string
	for _, a := range as {
		if volatile(a) {
			continue
		}
		t := fmt.Sprintf("%T", a)
		var hh strings.Builder
		canon(&hh, reflect.ValueOf(a), 0)
		parts = append(parts, t+":"+hh.String())
	}
	slices.Sort(parts)
	fmt.Fprintf(h, "  attrs %q\n", parts)
}

// fingerprinted are the dialects whose attributes Fingerprint knows; the
// attributes of each are types of its own Atlas driver.
var fingerprinted = all.Dialects()

func volatile(a schema.Attr) bool {
	for _, d := range fingerprinted {
		if d.Volatile(a) {
			return true
		}
	}
	return false
}

var (
	tableType  = reflect.TypeOf((*schema.Table)(nil))
	schemaType = reflect.TypeOf((*schema.Schema)(nil))
	columnType = reflect.TypeOf((*schema.Column)(nil))
)

// canon writes a value deterministically: struct fields in order, pointers
// followed, references to tables, schemas and columns by name only.
func canon(h io.Writer, v reflect.Value, depth int) {
	if depth > 16 {
		h.Write([]byte("…"))
		return
	}
	if !v.IsValid() {
		h.Write([]byte("nil;"))
		return
	}
	switch v.Type() {
	case tableType, schemaType, columnType:
		if v.IsNil() {
			h.Write([]byte("nil;"))
		} else {
			fmt.Fprintf(h, "ref %q;", v.Elem().FieldByName("Name").String())
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			h.Write([]byte("nil;"))
			return
		}
		fmt.Fprintf(h, "%s{", v.Elem().Type())
		canon(h, v.Elem(), depth+1)
		h.Write([]byte("}"))
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fmt.Fprintf(h, "%s=", v.Type().Field(i).Name)
				canon(h, v.Field(i), depth+1)
			}
		}
	case reflect.Slice, reflect.Array:
		fmt.Fprintf(h, "[%d:", v.Len())
		for i := 0; i < v.Len(); i++ {
			canon(h, v.Index(i), depth+1)
		}
		h.Write([]byte("]"))
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		for _, k := range keys {
			fmt.Fprintf(h, "%v:", k)
			canon(h, v.MapIndex(k), depth+1)
		}
	default:
		fmt.Fprintf(h, "%#v;", v.Interface())
	}
}

// CanonicalExpr is what Fingerprint hashes of an expression: equal for
// expressions a diff finds equal.
func CanonicalExpr(x schema.Expr) string {
	var b strings.Builder
	canon(&b, reflect.ValueOf(x), 0)
	return b.String()
}

// CanonicalIndex is what Fingerprint hashes of an index.
func CanonicalIndex(i *schema.Index) string {
	var b strings.Builder
	index(&b, "index", i)
	return b.String()
}
