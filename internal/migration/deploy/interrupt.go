package deploy

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"time"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
)

// interruptedPrefix starts the error recorded for a statement that an
// interrupt stopped, so that the next apply knows it was not the
// statement's own failure.
const interruptedPrefix = "interrupted: "

// errNotRun is the error of a statement an interrupt kept from starting.
var errNotRun = errors.New(interruptedPrefix + "the apply was interrupted before the statement started")

// cancelledError is a statement the server cancelled on an interrupt.
type cancelledError struct{ Err error }

func (e *cancelledError) Error() string {
	return interruptedPrefix + "the statement was cancelled on the server: " + e.Err.Error()
}

func (e *cancelledError) Unwrap() error { return e.Err }

// interrupted reports whether err is a statement an interrupt stopped.
func interrupted(err error) bool {
	var c *cancelledError
	return errors.Is(err, errNotRun) || errors.As(err, &c)
}

// Timings of a cancel: how often it is asked again while the statement
// runs on, and when the session is ended instead.
var (
	cancelRepeat = 5 * time.Second
	cancelGiveUp = 30 * time.Second
)

// stopper stops the statements of one session on an interrupt: a
// statement runs to its end on the server with the client waiting for it
// (a client that stops waiting leaves it running there), unless the
// interrupt comes, when the server is asked, from another session, to
// cancel it, and the client waits for the statement to end. After the
// interrupt no statement starts.
type stopper struct {
	interrupt <-chan struct{}
	sessions  dialects.Sessions // nil: the dialect cannot cancel
	other     schema.ExecQuerier
	id        int64
	notices   io.Writer
}

// newStopper reads the session id of conn, when the dialect has the
// Sessions part ss (else a stopper stops the client only); other runs the
// cancels.
func newStopper(ctx context.Context, ss dialects.Sessions, conn *sql.Conn, other *sql.DB, notices io.Writer) (*stopper, error) {
	s := &stopper{interrupt: ctx.Done(), other: other, notices: notices}
	if ss != nil {
		id, err := ss.SessionID(ctx, conn)
		if err != nil {
			return nil, fmt.Errorf("reading the session's id: %w", err)
		}
		s.sessions, s.id = ss, id
	}
	return s, nil
}

func (s *stopper) stopped() bool {
	select {
	case <-s.interrupt:
		return true
	default:
		return false
	}
}

// run calls f, which runs one statement, and cancels the statement on the
// server if the interrupt comes before f returns; it returns when f does.
func (s *stopper) run(f func()) {
	done, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-done:
		case <-s.interrupt:
			s.cancel(done)
		}
	}()
	f()
	close(done)
	<-watched
}

func (s *stopper) cancel(done <-chan struct{}) {
	if s.sessions == nil {
		s.notice("interrupted: waiting for the running statement to end (this database cannot cancel it)")
		return
	}
	ask := func() {
		ctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
		defer stop()
		if err := s.sessions.CancelStatement(ctx, s.other, s.id); err != nil {
			s.notice("cancelling the statement of session %d: %v", s.id, err)
		}
	}
	s.notice("interrupted: cancelling the running statement on the server (session %d) and waiting for it to stop", s.id)
	ask()
	repeat, giveUp := time.NewTicker(cancelRepeat), time.After(cancelGiveUp)
	defer repeat.Stop()
	for {
		select {
		case <-done:
			return
		case <-repeat.C:
			ask()
		case <-giveUp:
			s.notice("the statement still runs %s after its cancel: ending session %d", cancelGiveUp, s.id)
			ctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
			if err := s.sessions.EndSession(ctx, s.other, s.id); err != nil {
				s.notice("ending session %d: %v", s.id, err)
			}
			stop()
			return
		}
	}
}

func (s *stopper) notice(format string, args ...any) {
	if s.notices != nil {
		fmt.Fprintf(s.notices, format+"\n", args...)
	}
}

// guarded runs statements under a stopper: the context of a statement
// never cancels it in the client only.
type guarded struct {
	schema.ExecQuerier
	s *stopper
}

func (g guarded) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if g.s.stopped() {
		return nil, errNotRun
	}
	var (
		res sql.Result
		err error
	)
	g.s.run(func() { res, err = g.ExecQuerier.ExecContext(context.WithoutCancel(ctx), query, args...) })
	if err != nil && g.s.stopped() {
		err = &cancelledError{Err: err}
	}
	return res, err
}

func (g guarded) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if g.s.stopped() {
		return nil, errNotRun
	}
	var (
		rows *sql.Rows
		err  error
	)
	g.s.run(func() { rows, err = g.ExecQuerier.QueryContext(context.WithoutCancel(ctx), query, args...) })
	if err != nil && g.s.stopped() {
		err = &cancelledError{Err: err}
	}
	return rows, err
}

// InterruptedError is an apply stopped by an interrupt between files.
type InterruptedError struct {
	Next string // the first file not run
}

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("interrupted before %s: no statement of it ran; `schemagen migrate apply` runs it and the files after it", e.Next)
}
