#pragma once
// Sets (or, with a null value, unsets) an environment variable for one scope,
// and puts back what was there: tests that move a store with $OLLAMA_MODELS,
// $LLAMA_CACHE or $HOME leave the next test the environment they found.

#include <QByteArray>
#include <QtGlobal>

class ScopedEnv
{
public:
    ScopedEnv(const char *name, const QByteArray &value)
        : m_name(name), m_old(qgetenv(name)), m_had(qEnvironmentVariableIsSet(name))
    {
        if (value.isNull())
            qunsetenv(name);
        else
            qputenv(name, value);
    }
    ~ScopedEnv()
    {
        if (m_had)
            qputenv(m_name, m_old);
        else
            qunsetenv(m_name);
    }
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
    const char *m_name;
    QByteArray m_old;
    bool m_had;
};
