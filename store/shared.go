package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// LimitState is one limiter key's counters, as the server's limiters keep
// them in memory: events in the window, when the window started, and for
// backoff limiters when the next attempt may start and how many went past
// the limit.
type LimitState struct {
	N      int
	Start  time.Time
	Next   time.Time // zero: none
	Excess int
}

// IsZero reports whether the state counts nothing: a key in it is the
// same as no key, so it is not kept.
func (l LimitState) IsZero() bool { return l.N == 0 && l.Excess == 0 && l.Next.IsZero() }

// UpdateLimit runs fn on key's state under a row lock and saves what fn
// leaves, in one transaction: two instances updating one key queue on the
// row, so their counts add up exactly. The row lives until expires (the
// janitor removes it after); a state that counts nothing is deleted, so an
// attempt given back leaves no row.
func (s *Store) UpdateLimit(ctx context.Context, key string, expires time.Time, fn func(*LimitState)) error {
	lock := ""
	if s.dialect == Postgres {
		lock = " FOR UPDATE"
	}
	err := s.writer(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec(`INSERT INTO rate_limits (key, n, window_start, excess, expires_at) VALUES (?, 0, ?, 0, ?) ON CONFLICT (key) DO NOTHING`,
			key, time.Unix(0, 0).UTC(), expires.UTC()).Error; err != nil {
			return err
		}
		var row limitRow
		if err := tx.Raw(`SELECT n, window_start, next_at, excess FROM rate_limits WHERE key = ?`+lock, key).Scan(&row).Error; err != nil {
			return err
		}
		st := row.state()
		fn(&st)
		if st.IsZero() {
			return tx.Exec(`DELETE FROM rate_limits WHERE key = ?`, key).Error
		}
		var next any
		if !st.Next.IsZero() {
			next = st.Next.UTC()
		}
		return tx.Exec(`UPDATE rate_limits SET n = ?, window_start = ?, next_at = ?, excess = ?, expires_at = ? WHERE key = ?`,
			st.N, st.Start.UTC(), next, st.Excess, expires.UTC(), key).Error
	})
	if err != nil {
		return fmt.Errorf("update limit: %w", err)
	}
	return nil
}

// PeekLimit reads key's state without creating it; found is false for a
// key that is absent or expired at now.
func (s *Store) PeekLimit(ctx context.Context, key string, now time.Time) (st LimitState, found bool, err error) {
	var rows []limitRow
	if err := s.reader(ctx).Raw(`SELECT n, window_start, next_at, excess FROM rate_limits WHERE key = ? AND expires_at > ?`, key, now.UTC()).
		Scan(&rows).Error; err != nil {
		return st, false, fmt.Errorf("peek limit: %w", err)
	}
	if len(rows) == 0 {
		return st, false, nil
	}
	return rows[0].state(), true, nil
}

// limitRow is a rate_limits row as read.
type limitRow struct {
	N           int
	WindowStart time.Time
	NextAt      sql.NullTime
	Excess      int
}

func (r limitRow) state() LimitState {
	st := LimitState{N: r.N, Start: r.WindowStart, Excess: r.Excess}
	if r.NextAt.Valid {
		st.Next = r.NextAt.Time
	}
	return st
}

// DeleteLimit forgets key (a verified password reset ends a lockout).
func (s *Store) DeleteLimit(ctx context.Context, key string) error {
	if err := s.writer(ctx).Exec(`DELETE FROM rate_limits WHERE key = ?`, key).Error; err != nil {
		return fmt.Errorf("delete limit: %w", err)
	}
	return nil
}

// janitorLockKey is the PostgreSQL advisory lock the janitor holds ("LFJN").
const janitorLockKey = 0x4c464a4e

// ErrJanitorBusy means another instance is running the janitor now.
var ErrJanitorBusy = errors.New("another instance holds the janitor lock")

// WithJanitorLock runs fn while holding the janitor lock: on PostgreSQL a
// session advisory lock, so of several instances on one database only one
// sweeps at a time (the others get ErrJanitorBusy and try next round); on
// SQLite the data dir already has a single server, so fn just runs.
func (s *Store) WithJanitorLock(ctx context.Context, fn func(ctx context.Context) error) error {
	if s.dialect != Postgres {
		return fn(ctx)
	}
	db, err := s.w.DB()
	if err != nil {
		return err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("janitor lock: %w", err)
	}
	defer conn.Close()
	var got bool
	if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1)`, janitorLockKey).Scan(&got); err != nil {
		return fmt.Errorf("janitor lock: %w", err)
	}
	if !got {
		return ErrJanitorBusy
	}
	defer func() {
		// A fresh context: the lock must go even when ctx ended.
		uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := conn.ExecContext(uctx, `SELECT pg_advisory_unlock($1)`, janitorLockKey); err != nil {
			// Drop the connection instead of pooling it: a closed
			// session gives its advisory locks back.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn }) // ErrBadConn drops the connection
		}
	}()
	return fn(ctx)
}

// maxKeyLocks bounds the pool connections held by KeyLock at once, well
// under the pool's 20, so the work done under the locks always finds one.
const maxKeyLocks = 8

// KeyLock serialises work on name across every instance on the database:
// on PostgreSQL a session advisory lock on a hash of name, held on its own
// connection until the returned function is called; on SQLite (one server
// per data dir) nothing, as the caller's own mutex is enough.
func (s *Store) KeyLock(ctx context.Context, name string) (unlock func(), err error) {
	if s.dialect != Postgres {
		return func() {}, nil
	}
	select {
	case s.keyLocks <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	release := func() { <-s.keyLocks }
	db, err := s.w.DB()
	if err != nil {
		release()
		return nil, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		release()
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(hashtextextended($1, 0))`, name); err != nil {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn }) // ErrBadConn drops the connection
		conn.Close()
		release()
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	return func() {
		uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := conn.ExecContext(uctx, `SELECT pg_advisory_unlock(hashtextextended($1, 0))`, name); err != nil {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn }) // ErrBadConn drops the connection
		}
		conn.Close()
		release()
	}, nil
}
