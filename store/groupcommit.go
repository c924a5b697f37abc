package store

import (
	"context"
	"errors"
	"fmt"

	"gorm.io/gorm"
)

// Group commit (SQLite). With synchronous=FULL every commit waits for the
// disk to flush, about a thousand a second on an ordinary disk: one write
// per request would cap the server there. Instead one goroutine owns the
// writer connection; the writes that arrive while a commit is flushing are
// gathered into the next transaction, each in a savepoint of its own, and
// every caller is answered only after the transaction that holds its write
// is durable. A write that fails rolls back to its savepoint and fails
// alone; its batch-mates commit. PostgreSQL does its own group commit, so
// there the writes run directly.

const maxBatch = 256

type writeJob struct {
	ctx  context.Context
	fn   func(tx *gorm.DB) error
	done chan error
}

type groupCommitter struct {
	db   *gorm.DB
	jobs chan *writeJob
	quit chan struct{}
	exit chan struct{}
}

func newGroupCommitter(db *gorm.DB) *groupCommitter {
	g := &groupCommitter{db: db, jobs: make(chan *writeJob, maxBatch), quit: make(chan struct{}), exit: make(chan struct{})}
	go g.run()
	return g
}

var errStoreClosed = errors.New("the database is closed")

func (g *groupCommitter) do(ctx context.Context, fn func(tx *gorm.DB) error) error {
	j := &writeJob{ctx: ctx, fn: fn, done: make(chan error, 1)}
	select {
	case g.jobs <- j:
	case <-g.quit:
		return errStoreClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	// Once queued the write is committed or refused as a whole: wait for the
	// answer even if the caller gives up, so an acknowledged write is durable.
	return <-j.done
}

func (g *groupCommitter) run() {
	defer close(g.exit)
	for {
		var first *writeJob
		select {
		case first = <-g.jobs:
		case <-g.quit:
			// Writes already queued still get their answer.
			for {
				select {
				case j := <-g.jobs:
					g.commit([]*writeJob{j})
				default:
					return
				}
			}
		}
		batch := []*writeJob{first}
	gather:
		for len(batch) < maxBatch {
			select {
			case j := <-g.jobs:
				batch = append(batch, j)
			default:
				break gather
			}
		}
		g.commit(batch)
	}
}

// commit runs a batch in one IMMEDIATE transaction, a savepoint per write.
func (g *groupCommitter) commit(batch []*writeJob) {
	results := make([]error, len(batch))
	tx := g.db.Session(&gorm.Session{NewDB: true, SkipDefaultTransaction: true}).Begin()
	if tx.Error != nil {
		for _, j := range batch {
			j.done <- fmt.Errorf("begin: %w", tx.Error)
		}
		return
	}
	for i, j := range batch {
		if err := j.ctx.Err(); err != nil {
			results[i] = err
			continue
		}
		if err := tx.Exec("SAVEPOINT w").Error; err != nil {
			results[i] = err
			continue
		}
		err := runJob(j, tx)
		if err != nil {
			if rerr := tx.Exec("ROLLBACK TO w").Error; rerr != nil {
				// The transaction is unusable: nothing of this batch commits.
				tx.Rollback()
				for _, b := range batch {
					b.done <- fmt.Errorf("write batch rolled back: %w", rerr)
				}
				return
			}
		}
		tx.Exec("RELEASE w")
		results[i] = err
	}
	if err := tx.Commit().Error; err != nil {
		for _, j := range batch {
			j.done <- fmt.Errorf("commit: %w", err)
		}
		return
	}
	for i, j := range batch {
		j.done <- results[i]
	}
}

// runJob runs one write, turning a panic into that write's error.
func runJob(j *writeJob, tx *gorm.DB) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("write panicked: %v", r)
		}
	}()
	return j.fn(tx)
}

func (g *groupCommitter) close() {
	close(g.quit)
	<-g.exit
}

// write runs fn with the writer: in the next group commit on SQLite, or
// directly (autocommit) on PostgreSQL. fn must use only the tx it gets.
func (s *Store) write(ctx context.Context, fn func(tx *gorm.DB) error) error {
	if s.gc == nil {
		return fn(s.writer(ctx))
	}
	return s.gc.do(ctx, fn)
}
