# One image for `numjudge serve` and `numjudge worker` (see docker-compose.yml, docs/deploy.md).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /srv/numjudge
COPY pyproject.toml constraints.txt README.md* ./
COPY app ./app
COPY graders ./graders
COPY migrations ./migrations
COPY alembic.ini ./
RUN pip install --no-cache-dir -c constraints.txt -e .
COPY exercises ./exercises
EXPOSE 8000
CMD ["numjudge", "serve", "--host", "0.0.0.0", "--port", "8000"]
